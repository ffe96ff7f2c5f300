import * as z from 'zod/mini';
import { breedGroupsLookup } from '../../shared/domain/reference/breed-groups-lookup.ts';
import { listFavourites, presentFavourite } from '../../shared/domain/interactions/favourites.ts';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { forbidden } from '../../shared/errors.ts';
import { boolean, text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { imageDetails } from '../../shared/domain/images/image-details.ts';
import { favouriteListItem } from '../../shared/domain/interactions/responses.ts';

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
  async ({ query: q, account }, deps) => {
    // Administrators may look at another account's favourites; everyone else only at their own.
    if (q.account_id && q.account_id !== account.id && account.role !== 'admin')
      throw forbidden('account_id must be your own account');
    const favourites = await listFavourites(
      deps,
      q.account_id ?? account.id,
      {
        order: q.order,
        page: q.page,
        limit: q.limit,
        subId: q.sub_id,
        imageId: q.image_id,
        includeDeleted: q.is_deleted,
        species: q.species_id,
        breedGroups: q.breed_groups,
        excludeBreedGroups: q.exclude_breed_groups,
      },
      await breedGroupsLookup(deps),
    );
    const images = q.attach_image
      ? await imageDetails(
          deps,
          favourites.map((f) => f.image_id),
        )
      : undefined;
    return favourites.map((f) => ({
      ...presentFavourite(f),
      ...(images && { image: images.get(f.image_id) ?? null }),
    }));
  },
);
