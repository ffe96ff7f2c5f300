import type { Deps } from '../../deps.ts';
import type { Account } from '../accounts/account.ts';
import type { Order } from '../../schema/paging.ts';
import { notFound } from '../../errors.ts';
import type { Translator } from './i18n.ts';
import { shuffle } from '../../schema/paging.ts';
import { loadReferenceSet } from './snapshot-store.ts';
import type { Species } from './species.ts';
import { publicMediaUrl } from '../../media/public-url.ts';
import type { BreedData } from './records.ts';

/** A breed as served: its record (records.ts) and the catalogue's reference image, added when the data is seeded. */
export type BreedRecord = BreedData & {
  reference_image?: { id: string; file: string; width: number; height: number } | null;
};

/** Translations of the temperament words breeds share: word → language → translation. */
export type TemperamentVocabulary = Record<string, Partial<Record<string, string>>>;

type ReferenceDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const loadBreeds = (deps: ReferenceDeps) => loadReferenceSet<BreedRecord[]>(deps, 'breeds');
export const loadTemperaments = (deps: ReferenceDeps) => loadReferenceSet<TemperamentVocabulary>(deps, 'temperaments');

export async function requireBreed(deps: ReferenceDeps, breedId: string): Promise<BreedRecord> {
  const breed = (await loadBreeds(deps)).find((b) => b.id === breedId);
  if (!breed) throw notFound(`Breed ${breedId} does not exist`);
  return breed;
}

export interface BreedFilter {
  speciesId?: Species | undefined;
  breedGroups?: string[] | undefined;
  excludeBreedGroups?: string[] | undefined;
  /** undefined: extinct and living alike. */
  extinct?: boolean | undefined;
  venomCode?: string | undefined;
  /** Partial, case- and accent-insensitive name match (any language, alt names too). */
  q?: string | undefined;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function matchesBreed(breed: BreedRecord, filter: BreedFilter): boolean {
  const groups = breed.breed_groups.map((g) => g.toLowerCase());
  if (filter.speciesId && breed.species_id !== filter.speciesId) return false;
  if (filter.extinct !== undefined && breed.extinct !== filter.extinct) return false;
  if (filter.breedGroups?.length && !filter.breedGroups.some((g) => groups.includes(g.toLowerCase()))) return false;
  if (filter.excludeBreedGroups?.some((g) => groups.includes(g.toLowerCase()))) return false;
  if (filter.venomCode && !breed.venom_codes.some((c) => c.toLowerCase() === filter.venomCode!.toLowerCase()))
    return false;
  if (filter.q) {
    const needle = fold(filter.q);
    const names = [breed.name, ...breed.alt_names, ...Object.values(breed.i18n ?? {}).map((t) => t?.name ?? '')];
    if (!names.some((n) => fold(n).includes(needle))) return false;
  }
  return true;
}

/** ASC/DESC by name (then id); RANDOM shuffles; no order keeps the catalogue order (species, then name). */
export function ordered<T extends { name: string; id: string }>(
  items: T[],
  order: Order | undefined,
  random: () => number,
): T[] {
  if (order === 'RANDOM') return shuffle([...items], random);
  if (!order) return items;
  const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id.localeCompare(b.id));
  return order === 'DESC' ? sorted.reverse() : sorted;
}

/** "10 - 13", one figure as "9", a minimum-only height (no `max`) as "at least 54.5". */
const rangeText = (r: { min: number; max?: number } | null | undefined, unit = '') => {
  if (!r) return '';
  if (r.max === undefined) return `at least ${r.min}${unit}`;
  return `${r.min === r.max ? r.min : `${r.min} - ${r.max}`}${unit}`;
};

export const hasFullBreedSchema = (account: Account | null) => account?.features.includes('full_breed_schema') ?? false;

/**
 * The two shapes of the spec: the basic shape uses the real service's strings ("10 - 13 years", "23 - 27");
 * the detailed shape (feature `full_breed_schema`) adds registries, VeNom codes, recognition, numeric ranges.
 */
export function presentBreed(
  breed: BreedRecord,
  detailed: boolean,
  translator: Translator,
  temperaments: TemperamentVocabulary,
  mediaBaseUrl: string,
) {
  const {
    name,
    breed_groups: groups,
    description,
  } = translator.apply(
    { name: breed.name, breed_groups: breed.breed_groups, description: breed.description ?? '' },
    breed.i18n,
  );
  const temperament = breed.temperament.map((t) => translator.term(t, temperaments));
  const basic = {
    id: breed.id,
    name,
    species_id: breed.species_id,
    breed_group: groups[0] ?? '',
    temperament: temperament.join(', '),
    life_span: rangeText(breed.life_span, ' years'),
    alt_names: breed.alt_names.join(', '),
    wikipedia_url: breed.wikipedia_url ?? '',
    origin: breed.origin,
    country_code: breed.country_code ?? '',
    weight: { imperial: rangeText(breed.weight?.imperial), metric: rangeText(breed.weight?.metric) },
    height: { imperial: rangeText(breed.height?.imperial), metric: rangeText(breed.height?.metric) },
    reference_image_id: breed.reference_image?.id ?? null,
    image: breed.reference_image
      ? {
          id: breed.reference_image.id,
          url: publicMediaUrl(mediaBaseUrl, breed.reference_image.file),
          width: breed.reference_image.width,
          height: breed.reference_image.height,
        }
      : null,
  };
  if (!detailed) return basic;
  return {
    ...basic,
    breed_groups: groups,
    temperaments: temperament,
    country_codes: breed.country_codes,
    extinct: breed.extinct,
    mixed: breed.mixed,
    ...(breed.extinct && { period: breed.period, description }),
    life_span_years: breed.life_span,
    weight_range: breed.weight,
    height_range: breed.height,
    registry_ids: breed.registry_ids,
    recognition: breed.recognition,
    venom_codes: breed.venom_codes,
    source_urls: breed.source_urls,
    estimated_fields: breed.estimated_fields,
    one_figure_fields: breed.one_figure_fields,
  };
}
