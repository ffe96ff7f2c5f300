import * as z from 'zod/mini';
import { ORDERS, pageParam } from '../../schema/paging.ts';
import { boolean, caseInsensitiveEnum, integer, list, text, WORD_MAX_LENGTH } from '../../schema/params.ts';
import { subIdParam } from '../../schema/sub-id.ts';
import { langParam } from '../reference/i18n.ts';
import { speciesParam } from '../reference/species.ts';
import { ORDER_BY } from './search.ts';

/** GET /images/search. */
export const imageSearchQuery = z.strictObject({
  // The spec's schema says 1, its prose 10; the real service answers one image by default.
  limit: z._default(integer({ min: 1, max: 100 }), 1),
  page: pageParam,
  order: z.optional(caseInsensitiveEnum(ORDERS)),
  order_by: z._default(z.enum(ORDER_BY), 'created_at'),
  species_id: z.optional(speciesParam),
  breed_groups: z.optional(list()),
  exclude_breed_groups: z.optional(list()),
  lang: z.optional(langParam),
  has_breeds: z.optional(boolean()),
  include_breeds: z._default(boolean(), true),
  include_categories: z._default(boolean(), true),
  include_colours: z._default(boolean(), false),
  account_id: z.optional(text({ max: 64 })),
  breed_id: z.optional(text({ max: 100 })),
  breed_ids: z.optional(list()),
  category_ids: z.optional(
    z.pipe(list(), z.array(z.pipe(text({ max: WORD_MAX_LENGTH }, z.regex(/^\d+$/)), z.transform(Number)))),
  ),
  colour_id: z.optional(text({ max: 100 })),
  colour_ids: z.optional(list()),
  colour_code: z.optional(text({ max: 20 })),
  has_colours: z.optional(boolean()),
  age_months_min: z.optional(integer({ min: 0, max: 600 })),
  age_months_max: z.optional(integer({ min: 0, max: 600 })),
  sub_id: z.optional(subIdParam),
});
