// How lists are ordered and paged, shared by the request schemas, the core and the stores (which read pages).
import * as z from 'zod/mini';
import { integer, text } from './params.ts';

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

/** A path with one id segment, e.g. `idParam('breedId')` for `/breeds/{breedId}`. */
export const idParam = <const K extends string>(name: K) =>
  z.object({ [name]: text({ max: 100 }) } as Record<K, ReturnType<typeof text>>);

/** Fisher–Yates, in place, with an injectable random source: a RANDOM page is a fresh sample. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Zero-based page of an ordered list; RANDOM order is a fresh sample each time, so `page` does not apply to it. */
export function pageSlice<T>(
  ordered: T[],
  { order, page, limit }: { order: Order | undefined; page: number; limit: number },
): T[] {
  const start = order === 'RANDOM' ? 0 : page * limit;
  return ordered.slice(start, start + limit);
}
