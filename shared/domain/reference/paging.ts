import type { Order } from '../../http/common-params.ts';
import { withHeaders } from '../../http/responses.ts';
import type { Translator } from './i18n.ts';

/** Zero-based page of an ordered list; RANDOM order is a fresh sample each time, so `page` does not apply to it. */
export function pageSlice<T>(
  ordered: T[],
  { order, page, limit }: { order: Order | undefined; page: number; limit: number },
): T[] {
  const start = order === 'RANDOM' ? 0 : page * limit;
  return ordered.slice(start, start + limit);
}

/** A page-style list: `Pagination-Count` carries every match, `Content-Language` the languages served. */
export const listReply = <T>(body: T[], total: number, translator: Translator) =>
  withHeaders(body, { 'pagination-count': String(total), 'content-language': translator.contentLanguage });

/** Fisher–Yates, in place, with an injectable random source. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
