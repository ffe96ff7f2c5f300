// Query parameters the spec shares between routes, defined once.
import * as z from 'zod/mini';
import { langParam } from '../domain/reference/i18n.ts';
import { speciesParam } from '../domain/reference/species.ts';
import { boolean, caseInsensitiveEnum, integer, list, text } from './params.ts';

export const ORDERS = ['ASC', 'DESC', 'RANDOM'] as const;
export type Order = (typeof ORDERS)[number];

/**
 * The deepest page a list serves: page-style lists read (and skip) every item before the page, so depth is capped
 * rather than billed per request; past it, narrow the query with a filter (docs/security.md#limits).
 */
export const MAX_PAGE = 100;
/** The same bound for offset-style lists. */
export const MAX_OFFSET = 10_000;

/** Zero-based `page`, default 0, at most MAX_PAGE. */
export const pageParam = z._default(integer({ min: 0, max: MAX_PAGE }), 0);

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

/** A path with one id segment, e.g. `idParam('breedId')` for `/breeds/{breedId}`. */
export const idParam = <const K extends string>(name: K) =>
  z.object({ [name]: text({ max: 100 }) } as Record<K, ReturnType<typeof text>>);
