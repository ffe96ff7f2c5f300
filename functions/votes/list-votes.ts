import * as z from 'zod/mini';
import { listVotes } from '../../shared/domain/interactions/votes.ts';
import { voteBody } from '../../shared/domain/interactions/responses.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { route } from './routes.ts';

const query = z.strictObject({
  ...pageQuery({ defaultLimit: 10, maxLimit: 100, defaultOrder: 'ASC' }),
  sub_id: z.optional(subIdParam),
});

export const handler = httpRoute(
  route('votes.list'),
  { summary: 'Your votes', query, response: z.array(voteBody) },
  async ({ query: q, account }, deps) =>
    listVotes(deps, account, {
      order: q.order,
      page: q.page,
      limit: q.limit,
      subId: q.sub_id,
      species: q.species_id,
      breedGroups: q.breed_groups,
      excludeBreedGroups: q.exclude_breed_groups,
    }),
);
