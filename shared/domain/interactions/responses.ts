// What the vote and favourite routes answer, as schemas: the handlers' contracts and the OpenAPI document use them.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { VOTE_VALUES } from './votes.ts';

export const voteBody = documented(
  z.object({
    id: documented(z.int(), { description: 'Sequential per service, as in the spec.' }),
    image_id: z.string(),
    sub_id: z.nullable(z.string()),
    value: documented(z.int().check(z.gte(Math.min(...VOTE_VALUES)), z.lte(Math.max(...VOTE_VALUES))), {
      description: '1 up, 0 down.',
    }),
    country_code: documented(z.nullable(z.string()), { description: 'The country the vote came from, when known.' }),
    created_at: z.string(),
  }),
  { id: 'Vote' },
);

export const favouriteBody = documented(
  z.object({
    id: z.string(),
    account_id: z.string(),
    image_id: z.string(),
    sub_id: z.nullable(z.string()),
    created_at: z.string(),
    deleted_at: z.optional(documented(z.string(), { description: 'Deleted favourites (`is_deleted=true`).' })),
  }),
  { id: 'Favourite' },
);

export const favouriteListItem = z.extend(favouriteBody, {
  image: z.optional(
    documented(
      z.nullable(
        z.object({
          id: z.string(),
          url: z.string(),
          width: z.nullable(z.number()),
          height: z.nullable(z.number()),
          species_id: z.nullable(z.string()),
        }),
      ),
      { description: 'With `attach_image=true`; null when the image is gone.' },
    ),
  ),
});
