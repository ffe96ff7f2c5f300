// Query parameters the spec shares between list and content routes, defined once.
import * as z from 'zod/mini';
import { ORDERS, MAX_OFFSET, type Order, pageParam } from '../../schema/paging.ts';
import { boolean, caseInsensitiveEnum, integer, list } from '../../schema/params.ts';
import { langParam } from './i18n.ts';
import { speciesParam } from './species.ts';

/** Content routes: `include_sources` and `lang`. */
export const contentQuery = {
  include_sources: z.optional(boolean()),
  lang: z.optional(langParam),
};

/** Offset-style lists (facts, health tips): `limit` 1-100 (default 10), `offset` from 0. */
export const offsetQuery = {
  limit: z._default(integer({ min: 1, max: 100 }), 10),
  offset: z._default(integer({ min: 0, max: MAX_OFFSET }), 0),
  ...contentQuery,
};

/** Page-style lists: zero-based `page`, `limit` within the route's bounds, `order`, and the shared filters. */
export function pageQuery(limits: { defaultLimit: number; maxLimit: number; defaultOrder?: Order }) {
  return {
    limit: z._default(integer({ min: 1, max: limits.maxLimit }), limits.defaultLimit),
    page: pageParam,
    order: limits.defaultOrder
      ? z._default(caseInsensitiveEnum(ORDERS), limits.defaultOrder)
      : z.optional(caseInsensitiveEnum(ORDERS)),
    species_id: z.optional(speciesParam),
    breed_groups: z.optional(list()),
    exclude_breed_groups: z.optional(list()),
    lang: z.optional(langParam),
  };
}
