import type { Deps } from '../../deps.ts';
import type { Order } from '../../schema/paging.ts';
import { pageSlice, shuffle } from '../../schema/paging.ts';
import { loadReferenceSet } from './snapshot-store.ts';
import { type Language, Translator } from './i18n.ts';
import type { Species } from './species.ts';
import { type BreedRecord, loadBreeds, requireBreed } from './breeds.ts';
import type { LawRecord } from './records.ts';

export const loadLaws = (deps: Pick<Deps, 'ddb' | 'config' | 'now'>) =>
  loadReferenceSet<LawRecord[]>(deps, 'legislation');

const inForce = (law: LawRecord) => law.status === 'in_force' || law.status === 'partially_repealed';
/** What "breed-specific or characteristic-based legislation" covers: laws that single dogs out by type. */
const targetsTypes = (law: LawRecord) => law.legislation_type !== 'behavior_based';

/** Countries with laws in force that single dogs out by breed or characteristics, nationally or locally. */
export function countriesWithBreedLaws(laws: LawRecord[], species: Species | undefined) {
  const byCountry = new Map<
    string,
    { country_code: string; country_name: string; national_laws: number; jurisdiction_laws: number }
  >();
  for (const law of laws) {
    if (!inForce(law) || !targetsTypes(law) || (species && law.species_id !== species)) continue;
    const entry = byCountry.get(law.country_code) ?? {
      country_code: law.country_code,
      country_name: law.country_name,
      national_laws: 0,
      jurisdiction_laws: 0,
    };
    if (law.jurisdiction) entry.jurisdiction_laws++;
    else entry.national_laws++;
    byCountry.set(law.country_code, entry);
  }
  return [...byCountry.values()].sort((a, b) => a.country_name.localeCompare(b.country_name, 'en'));
}

export interface CountryLawQuery {
  country: string;
  species?: Species | undefined;
  legislationType?: string | undefined;
  approach?: string | undefined;
  jurisdiction?: string | undefined;
  /** Only rows checked against the law's text or an official page. */
  verifiedOnly?: boolean | undefined;
  breedGroups?: string[] | undefined;
  excludeBreedGroups?: string[] | undefined;
  order: Order | undefined;
}

/**
 * A country's laws: the national ones plus the rows that amend a list of designated types (the XL Bully orders of
 * England and Wales, Scotland and Northern Ireland), so the country's answer shows every change to what is banned;
 * where it has no national law, all its jurisdiction-level laws (states, cantons, cities). With `jurisdiction`,
 * that jurisdiction's laws (by name or code), whether or not a national law exists. See docs/decisions.md.
 */
export function lawsOfCountry(
  laws: LawRecord[],
  breeds: BreedRecord[],
  q: CountryLawQuery,
  random: () => number,
): LawRecord[] {
  const groupsOf = new Map(breeds.map((b) => [b.id, b.breed_groups.map((g) => g.toLowerCase())]));
  const linkedGroups = (law: LawRecord) =>
    law.breeds.filter((b) => b.breed_id).map((b) => groupsOf.get(b.breed_id!) ?? []);
  const lower = (list: string[] | undefined) => list?.map((g) => g.toLowerCase());
  const include = lower(q.breedGroups);
  const exclude = lower(q.excludeBreedGroups);
  const candidates = laws.filter(
    (law) =>
      law.country_code === q.country &&
      (!q.species || law.species_id === q.species) &&
      (!q.legislationType || law.legislation_type === q.legislationType) &&
      (!q.approach || law.approach === q.approach) &&
      (!q.verifiedOnly || law.verification !== 'secondary') &&
      (!include?.length || linkedGroups(law).some((groups) => groups.some((g) => include.includes(g)))) &&
      (!exclude?.length ||
        !linkedGroups(law).length ||
        !linkedGroups(law).every((groups) => groups.some((g) => exclude.includes(g)))),
  );
  let selected: LawRecord[];
  if (q.jurisdiction) {
    const wanted = q.jurisdiction.toLowerCase();
    selected = candidates.filter(
      (l) =>
        l.jurisdiction &&
        (l.jurisdiction.name.toLowerCase() === wanted || l.jurisdiction.code?.toLowerCase() === wanted),
    );
  } else {
    const national = candidates.filter((l) => !l.jurisdiction);
    selected = national.length > 0 ? candidates.filter((l) => !l.jurisdiction || l.amends) : candidates;
  }
  return orderLaws(selected, q.order, random);
}

/** A law as served: title and summary in the requested language (English where none), without the i18n block. */
/**
 * One page of a country's laws in the caller's language (titles and summaries come in de, es, fr and English;
 * official law names stay as the law writes them), with the count of all that match and the translator that served.
 */
export async function countryLawPage(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>,
  q: CountryLawQuery & { page: number; limit: number; lang: Language | undefined },
) {
  const [laws, breeds] = await Promise.all([loadLaws(deps), loadBreeds(deps)]);
  const selected = lawsOfCountry(laws, breeds, q, deps.random);
  const translator = new Translator(q.lang ?? 'en');
  const page = pageSlice(selected, q).map((law) => presentLaw(law, translator));
  return { laws: page, total: selected.length, translator };
}

function presentLaw(law: LawRecord, translator: Translator) {
  const { i18n, ...rest } = law;
  return { ...rest, ...translator.apply({ title: law.title, summary: law.summary }, i18n) };
}

const sortKey = (law: LawRecord) => `${law.jurisdiction?.name ?? ''}\u0000${law.title}`;

function orderLaws(laws: LawRecord[], order: Order | undefined, random: () => number): LawRecord[] {
  if (order === 'RANDOM') return shuffle([...laws], random);
  const sorted = [...laws].sort((a, b) => sortKey(a).localeCompare(sortKey(b), 'en'));
  return order === 'DESC' ? sorted.reverse() : sorted;
}

/**
 * Everywhere a breed is banned, restricted or needs a permit, under laws in force, in the caller's language (404 for
 * an unknown breed), with the translator that served them.
 */
export async function breedRestrictions(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  breedId: string,
  q: { species_id?: Species | undefined; lang?: Language | undefined },
) {
  const [breed, laws] = await Promise.all([requireBreed(deps, breedId), loadLaws(deps)]);
  const translator = new Translator(q.lang ?? 'en');
  return { places: placesRestrictingBreed(laws, breed.id, q.species_id, translator), translator };
}

function placesRestrictingBreed(
  laws: LawRecord[],
  breedId: string,
  species: Species | undefined,
  translator: Translator,
) {
  return laws
    .filter((law) => inForce(law) && law.approach !== 'approved_list' && (!species || law.species_id === species))
    .flatMap((law) => {
      const named = law.breeds.find((b) => b.breed_id === breedId);
      if (!named) return [];
      return [
        {
          country_code: law.country_code,
          country_name: law.country_name,
          jurisdiction: law.jurisdiction,
          law_id: law.id,
          title: translator.apply({ title: law.title, summary: law.summary }, law.i18n).title,
          approach: law.approach,
          legislation_type: law.legislation_type,
          includes_mixes: named.includes_mixes,
          status: law.status,
          source_url: law.source_url,
          verification: law.verification,
        },
      ];
    })
    .sort((a, b) =>
      `${a.country_name}${a.jurisdiction?.name ?? ''}`.localeCompare(
        `${b.country_name}${b.jurisdiction?.name ?? ''}`,
        'en',
      ),
    );
}
