// What facts and health tips have in common: filters, offset paging, random picks, translation and sources.
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import type { Language } from './i18n.ts';
import { Translator } from './i18n.ts';
import { loadReferenceSet, type ReferenceSet } from './snapshot-store.ts';
import type { Species } from './species.ts';

export interface ContentRecord {
  id: string;
  species_id: Species | null;
  breed_id: string | null;
  category: string;
}

export interface ContentFilter {
  breedId?: string | undefined;
  speciesId?: Species | undefined;
  category?: string | undefined;
}

export interface Presentation {
  includeSources: boolean;
  translator: Translator;
}

type ReferenceDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export function matches(record: ContentRecord, filter: ContentFilter): boolean {
  // A record without a species (a tip for both) matches either species.
  return (
    (filter.breedId === undefined || record.breed_id === filter.breedId) &&
    (filter.speciesId === undefined || record.species_id === null || record.species_id === filter.speciesId) &&
    (filter.category === undefined || record.category.toLowerCase() === filter.category.toLowerCase())
  );
}

export async function filtered<T extends ContentRecord>(
  deps: ReferenceDeps,
  set: ReferenceSet,
  filter: ContentFilter,
): Promise<T[]> {
  const records = await loadReferenceSet<T[]>(deps, set);
  return records.filter((r) => matches(r, filter));
}

/** One record of a content set by id; 404 naming `label` when there is none. */
export async function recordById<T extends ContentRecord>(
  deps: ReferenceDeps,
  set: ReferenceSet,
  id: string,
  label: string,
): Promise<T> {
  const record = (await loadReferenceSet<T[]>(deps, set)).find((r) => r.id === id);
  if (!record) throw notFound(`${label} ${id} does not exist`);
  return record;
}

export const offsetPage = <T>(records: T[], offset: number, limit: number): T[] =>
  records.slice(offset, offset + limit);

/** One record chosen uniformly at random; 404 with `what` when there is none. */
export function pickRandom<T>(records: T[], random: () => number, what: string): T {
  if (records.length === 0) throw notFound(`No ${what} found`);
  return records[Math.floor(random() * records.length)]!;
}

export const presentation = (lang: Language | undefined, includeSources: boolean | undefined): Presentation => ({
  includeSources: includeSources ?? false,
  translator: new Translator(lang ?? 'en'),
});
