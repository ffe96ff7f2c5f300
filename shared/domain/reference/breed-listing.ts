import type { Deps } from '../../deps.ts';
import type { Account } from '../accounts/account.ts';
import type { Order } from '../../schema/paging.ts';
import { Translator, type Language } from './i18n.ts';
import { pageSlice } from '../../schema/paging.ts';
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

/** The query the breed list and search share, as a page request; `extra` adds a route's own filters. */
export function breedPageOf(
  q: {
    species_id?: BreedFilter['speciesId'];
    breed_groups?: BreedFilter['breedGroups'];
    exclude_breed_groups?: BreedFilter['excludeBreedGroups'];
    extinct?: BreedFilter['extinct'];
    venom_code?: BreedFilter['venomCode'];
    order?: Order | undefined;
    page: number;
    limit: number;
    lang?: Language | undefined;
  },
  extra: Partial<BreedFilter> = {},
): BreedPage {
  return {
    filter: {
      ...extra,
      speciesId: q.species_id,
      breedGroups: q.breed_groups,
      excludeBreedGroups: q.exclude_breed_groups,
      extinct: q.extinct,
      venomCode: q.venom_code,
    },
    order: q.order,
    page: q.page,
    limit: q.limit,
    lang: q.lang,
  };
}

/**
 * A page of breeds in the caller's shape and language, with the count of all matches and the translator that served
 * them (for `Pagination-Count` and `Content-Language`). RANDOM order draws a fresh sample, so `page` only applies to
 * ASC/DESC and the default order.
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
  return { breeds: body, total: matching.length, translator };
}
