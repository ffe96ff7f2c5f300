import * as z from 'zod/mini';
import { listFavourites } from '../../shared/domain/interactions/favourites.ts';
import { favouriteListItem } from '../../shared/domain/interactions/responses.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { boolean, text } from '../../shared/schema/params.ts';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { route } from './routes.ts';

const query = z.strictObject({
  ...pageQuery({ defaultLimit: 10, maxLimit: 100 }),
  account_id: z.optional(text({ max: 64 })),
  image_id: z.optional(text({ max: 100 })),
  sub_id: z.optional(subIdParam),
  is_deleted: z._default(boolean(), false),
  attach_image: z._default(boolean(), false),
});

export const handler = httpRoute(
  route('favourites.list'),
  {
    summary: 'Your favourites',
    description: "Administrators may pass `account_id` to see another account's.",
    query,
    response: z.array(favouriteListItem),
  },
  async ({ query: q, account }, deps) =>
    listFavourites(deps, account, {
      accountId: q.account_id,
      order: q.order,
      page: q.page,
      limit: q.limit,
      subId: q.sub_id,
      imageId: q.image_id,
      includeDeleted: q.is_deleted,
      attachImage: q.attach_image,
      species: q.species_id,
      breedGroups: q.breed_groups,
      excludeBreedGroups: q.exclude_breed_groups,
    }),
);
