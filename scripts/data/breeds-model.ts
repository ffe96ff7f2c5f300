/**
 * Output shapes of the breed/colour/category build (the contract the API seeds
 * from) plus the shared context passed between the build modules.
 */
import type { BreedData, RECOGNITIONS } from '../../shared/domain/reference/records.ts';

export type SpeciesId = 'dog' | 'cat';
export type Recognition = (typeof RECOGNITIONS)[number];

/** Registries reported per species, in output key order. */
export const DOG_REGISTRIES = ['fci', 'akc', 'ukc', 'kc'] as const;
export const CAT_REGISTRIES = ['cfa', 'tica', 'fife', 'gccf', 'wcf', 'refr'] as const;

/** Languages carried in `i18n`, in output key order. */
export const I18N_LANGS = ['de', 'es', 'fr', 'pl', 'uk', 'en-gb'] as const;
export type I18nLang = (typeof I18N_LANGS)[number];
/** Languages for which group names, colour names, temperament words and categories are translated. */
export const MAIN_LANGS = ['de', 'es', 'fr'] as const;
export type MainLang = (typeof MAIN_LANGS)[number];

/** A published breed is the reader's record (shared/domain/reference/records.ts). */
export type BreedRecord = BreedData;
export type BreedI18n = BreedData['i18n'][string];

export interface ColourVariant {
  id: string;
  species_id: SpeciesId;
  code: string;
  name: string;
  kind: 'colour' | 'pattern' | 'modifier' | 'combination';
  i18n: Partial<Record<'de' | 'es' | 'fr' | 'en-gb', { name: string }>>;
}

export interface Category {
  id: number;
  name: string;
  species_ids: SpeciesId[];
  i18n: Record<MainLang, { name: string }>;
}

/** Hand-authored group names and their translations (data/authored/breed-groups.json). */
export interface GroupsFile {
  fci_groups: Record<string, { number: number; name: string }>;
  fci_sections: Record<string, Record<string, number>>;
  akc_groups: Record<string, string>;
  cat_groups: string[];
  i18n: Record<string, Record<MainLang, string>>;
}

export interface CountriesFile {
  names: Record<string, string>;
  fci: Record<string, { origin?: string; codes: string[] }>;
}

/** Things every module needs: file locations, shared authored tables and a problem log. */
export interface BuildContext {
  dataDir: string;
  authoredDir: string;
  groups: GroupsFile;
  countries: CountriesFile;
  /** English temperament word → translations; the key set is the fixed vocabulary. */
  temperamentVocabulary: Record<string, Record<MainLang, string>>;
  /** Ids already taken (both species); used by the collision rule. */
  takenIds: Set<string>;
  errors: string[];
  notes: string[];
}

/** Origin text and primary code from a list of ISO codes. */
export function originFromCodes(
  ctx: BuildContext,
  codes: string[],
  label?: string,
): { origin: string; country_code: string | null; country_codes: string[] } {
  for (const c of codes) if (!ctx.countries.names[c]) ctx.errors.push(`unknown country code ${c}`);
  return {
    origin: label ?? codes.map((c) => ctx.countries.names[c] ?? c).join(', '),
    country_code: codes[0] ?? null,
    country_codes: [...codes],
  };
}

/**
 * The collision rule: the slug of the English name; when another record (of
 * either species) already holds it, append "-<species>", then "-2", "-3", ….
 * Records claim ids in a fixed order: FCI dogs by FCI number, AKC-only dogs,
 * extinct dogs, then cats, each in the order of their input file.
 */
export function claimId(ctx: BuildContext, slug: string, species: SpeciesId): string {
  let id = slug;
  if (ctx.takenIds.has(id)) id = `${slug}-${species}`;
  let n = 2;
  while (ctx.takenIds.has(id)) id = `${slug}-${species}-${n++}`;
  if (id !== slug) ctx.notes.push(`id collision: "${slug}" taken, ${species} record gets "${id}"`);
  ctx.takenIds.add(id);
  return id;
}

/** Translations of a list of group names (de/es/fr), or undefined when a name has none. */
export function translateGroups(ctx: BuildContext, groups: string[], lang: MainLang): string[] | undefined {
  if (groups.length === 0) return undefined;
  const out: string[] = [];
  for (const g of groups) {
    const t = ctx.groups.i18n[g]?.[lang];
    if (!t) {
      ctx.errors.push(`group "${g}" has no ${lang} translation`);
      return undefined;
    }
    out.push(t);
  }
  return out;
}

/** A breed's name in one language; its groups are translated too where the language has group names (MAIN_LANGS). */
export function breedI18n(ctx: BuildContext, name: string, groups: string[], lang: I18nLang): BreedI18n {
  const entry: BreedI18n = { name };
  if ((MAIN_LANGS as readonly string[]).includes(lang)) {
    const translated = translateGroups(ctx, groups, lang as MainLang);
    if (translated) entry.breed_groups = translated;
  }
  return entry;
}

/** Validates temperament words against the fixed vocabulary. */
export function checkTemperament(ctx: BuildContext, where: string, words: string[]): string[] {
  for (const w of words)
    if (!ctx.temperamentVocabulary[w]) ctx.errors.push(`${where}: temperament "${w}" is not in temperament-i18n.json`);
  if (new Set(words).size !== words.length) ctx.errors.push(`${where}: duplicate temperament word`);
  return [...words];
}
