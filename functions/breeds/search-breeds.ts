import * as z from 'zod/mini';
import { breedPage, breedPageOf } from '../../shared/domain/reference/breed-listing.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { boolean, text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { listReply } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import { breedList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({
  ...pageQuery({ defaultLimit: 10, maxLimit: 100, defaultOrder: 'ASC' }),
  q: text({ min: 1, max: 30 }),
  venom_code: z.optional(text({ max: 20 })),
  // Unlike the list, search leaves extinct breeds in unless asked.
  extinct: z.optional(boolean()),
});

export const handler = httpRoute(
  route('breeds.search'),
  {
    summary: 'Search breeds by name',
    description: 'Partial, case- and accent-insensitive match on names in every language and alternative names.',
    headers: ['pagination-count', 'content-language'],
    query,
    response: breedList,
  },
  async ({ query: q, account }, deps) => {
    const { breeds, total, translator } = await breedPage(deps, account, breedPageOf(q, { q: q.q }));
    return listReply(breeds, total, translator);
  },
);
