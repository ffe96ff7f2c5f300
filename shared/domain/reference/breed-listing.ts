import type { Deps } from '../../deps.ts';
import type { Account } from '../accounts/account.ts';
import type { Order } from '../../http/common-params.ts';
import { Translator, type Language } from './i18n.ts';
import { listReply, pageSlice } from './paging.ts';
import {
  hasFullBreedSchema,
  loadBreeds,
  loadTemperaments,
  matchesBreed,
  ordered,
  presentBreed,
  type BreedFilter,
} from './breeds.ts';

export interface BreedPage {
  filter: BreedFilter;
  order: Order | undefined;
  page: number;
  limit: number;
  lang: Language | undefined;
}

/**
 * A page of breeds in the caller's shape and language, with `Pagination-Count` (all matches) and
 * `Content-Language`. RANDOM order draws a fresh sample, so `page` only applies to ASC/DESC and the default order.
 */
export async function breedPage(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>,
  account: Account,
  request: BreedPage,
) {
  const [breeds, temperaments] = await Promise.all([loadBreeds(deps), loadTemperaments(deps)]);
  const matching = ordered(
    breeds.filter((b) => matchesBreed(b, request.filter)),
    request.order,
    deps.random,
  );
  const translator = new Translator(request.lang ?? 'en');
  const detailed = hasFullBreedSchema(account);
  const body = pageSlice(matching, request).map((b) =>
    presentBreed(b, detailed, translator, temperaments, deps.config.mediaBaseUrl),
  );
  return listReply(body, matching.length, translator);
}
