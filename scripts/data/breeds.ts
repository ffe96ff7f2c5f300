/**
 * Breed, colour/pattern and image-category data build.
 *
 * Reads the raw third-party sources in the shared data folder (FCI
 * nomenclature, AKC numbers, VBO, corpora) and the project's own tables in
 * `data/authored/`, and writes `data/breeds.json`, `data/colours.json` and
 * `data/categories.json`. The output is deterministic: records and keys are
 * emitted in a fixed order and nothing time-dependent is written, so the same
 * input always gives byte-identical files. Rules and decisions are documented
 * in docs/data.md ("Breeds, colours and categories").
 *
 * Run directly: `npx tsx scripts/data/breeds.ts` (exit code 1 when a check
 * fails; nothing is written in that case). The shared data folder defaults to
 * `../shared/data` relative to the repository root; set SHARED_DATA_DIR to
 * override it.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCats } from './breeds-cats.ts';
import { buildColours } from './breeds-colours.ts';
import { buildDogs } from './breeds-dogs.ts';
import { buildMixed } from './breeds-mixed.ts';
import {
  type BreedRecord,
  type BuildContext,
  type Category,
  CAT_REGISTRIES,
  type CountriesFile,
  DOG_REGISTRIES,
  type GroupsFile,
  I18N_LANGS,
  MAIN_LANGS,
  type MainLang,
  type SpeciesId,
} from './breeds-model.ts';
import { readCorporaCats, readCorporaDogs } from './breeds-sources.ts';
import { compareNames, compareStrings, nameKey, readJson, toJson, uniqueBy } from './breeds-util.ts';
import * as z from 'zod/mini';
import { breedRecord } from '../../shared/domain/reference/records.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const AUTHORED_DIR = path.join(REPO_ROOT, 'data', 'authored');
const OUT_DIR = path.join(REPO_ROOT, 'data');

export function sharedDataDir(): string {
  const fromEnv = process.env.SHARED_DATA_DIR;
  return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.resolve(REPO_ROOT, '..', 'shared', 'data');
}

const ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const RECOGNITION_VALUES = new Set(['full', 'provisional', 'preliminary', 'none']);

/** Drops alternative names that are another record's display name (keeps searches unambiguous). */
function pruneAltNames(records: BreedRecord[]): void {
  const owners = new Map<string, string>();
  for (const r of records) owners.set(`${r.species_id}:${nameKey(r.name)}`, r.id);
  for (const r of records) {
    r.alt_names = r.alt_names.filter((a) => {
      const owner = owners.get(`${r.species_id}:${nameKey(a)}`);
      return owner === undefined || owner === r.id;
    });
  }
}

/** data/authored/breed-alt-names.json: names added, names dropped (with the reason), names shared (with the reason). */
interface AltNamesFile {
  breeds: Record<string, string[]>;
  drop: Record<string, Record<string, string>>;
  shared: Record<string, string>;
}

/**
 * A name that two breeds of one species carry makes a search answer both: allowed only where the name really names
 * both (documented in `shared` with the reason); a documented name no longer shared fails too, so the list stays true.
 */
function checkSharedNames(ctx: BuildContext, records: BreedRecord[], shared: Record<string, string>): void {
  const owners = new Map<string, Set<string>>();
  for (const r of records)
    for (const n of [r.name, ...r.alt_names]) {
      const key = `${r.species_id}:${nameKey(n)}`;
      owners.set(key, (owners.get(key) ?? new Set()).add(r.id));
    }
  const documented = new Set(Object.keys(shared).map(nameKey));
  const seen = new Set<string>();
  for (const [key, ids] of owners) {
    if (ids.size < 2) continue;
    const name = key.slice(key.indexOf(':') + 1);
    seen.add(name);
    if (!documented.has(name))
      ctx.errors.push(`alternative name "${name}" names ${[...ids].join(', ')}: drop it or document it as shared`);
  }
  for (const name of Object.keys(shared))
    if (!seen.has(nameKey(name))) ctx.errors.push(`breed-alt-names.json: "${name}" is documented as shared but is not`);
}

/**
 * A breed without any synonym still has names in other languages (the FCI nomenclature's, or ours for cats): those
 * become its alternative names, so a search in any of those languages finds it and the field is never empty.
 */
function fillAltNamesFromTranslations(records: BreedRecord[]): void {
  for (const r of records) {
    if (r.alt_names.length > 0) continue;
    const own = nameKey(r.name);
    r.alt_names = uniqueBy(
      (['de', 'fr', 'es'] as const)
        .map((lang) => r.i18n[lang]?.name ?? '')
        .filter((n) => n !== '' && nameKey(n) !== own),
      nameKey,
    );
  }
}

/** The breed fields the spec names (its image object's `breeds`), in its order. */
export const SPEC_BREED_FIELDS = [
  'name',
  'temperament',
  'life_span',
  'alt_names',
  'wikipedia_url',
  'origin',
  'country_code',
  'weight',
  'height',
] as const;
type SpecField = (typeof SPEC_BREED_FIELDS)[number];

const isFilled = (value: unknown): boolean =>
  Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined && value !== '';

export interface SpeciesCompleteness {
  living: number;
  /** Per field: living breeds with a value, and those documented as having none in the sources. */
  fields: Record<SpecField, { filled: number; documented: number }>;
}

/**
 * Completeness of the spec's breed fields over living breeds, per species. A field may be empty only where
 * `breed-field-exceptions.json` documents why (the sources give no value) or on a mixed record (no standard gives a
 * cross figures, a temperament or an origin); an undocumented gap, or an exception for a filled field, is an error.
 */
export function fieldCompleteness(
  ctx: BuildContext,
  records: BreedRecord[],
  exceptions: Partial<Record<SpecField, Record<string, string>>>,
): Record<SpeciesId, SpeciesCompleteness> {
  const out = {} as Record<SpeciesId, SpeciesCompleteness>;
  const ids = new Set(records.map((r) => r.id));
  for (const [field, byId] of Object.entries(exceptions))
    for (const id of Object.keys(byId ?? {}))
      if (!ids.has(id)) ctx.errors.push(`breed-field-exceptions.json: ${field}: unknown id ${id}`);
  for (const species of ['dog', 'cat'] as const) {
    const living = records.filter((r) => r.species_id === species && !r.extinct);
    const fields = {} as SpeciesCompleteness['fields'];
    for (const field of SPEC_BREED_FIELDS) {
      const documented = exceptions[field] ?? {};
      let filled = 0;
      let excused = 0;
      for (const r of living) {
        if (isFilled(r[field])) {
          filled++;
          if (documented[r.id]) ctx.errors.push(`breed-field-exceptions.json: ${r.id} has a ${field} after all`);
        } else if (documented[r.id] || r.mixed)
          excused++; // a cross has no standard to give figures or an origin
        else
          ctx.errors.push(
            `${r.id}: living breed without ${field} (fill it or document why in breed-field-exceptions.json)`,
          );
      }
      fields[field] = { filled, documented: excused };
    }
    out[species] = { living: living.length, fields };
  }
  return out;
}

/** One line per species: each field's share of living breeds with a value (documented gaps in brackets). */
export function completenessReport(report: Record<SpeciesId, SpeciesCompleteness>): string[] {
  return (['dog', 'cat'] as const).map((species) => {
    const { living, fields } = report[species];
    const cells = SPEC_BREED_FIELDS.map((f) => {
      const { filled, documented } = fields[f];
      const pct = ((filled / living) * 100).toFixed(1).replace(/\.0$/, '');
      return `${f} ${pct}%${documented ? ` (+${documented} documented as none)` : ''}`;
    });
    return `field completeness, living ${species}s (${living}): ${cells.join(', ')}`;
  });
}

function validateBreeds(ctx: BuildContext, records: BreedRecord[]): void {
  const seen = new Set<string>();
  for (const r of records) {
    const at = `breed ${r.id}`;
    if (!ID_PATTERN.test(r.id)) ctx.errors.push(`${at}: id is not a lowercase ASCII slug`);
    if (seen.has(r.id)) ctx.errors.push(`${at}: duplicate id`);
    seen.add(r.id);
    if (r.name.trim() === '' || r.name !== r.name.trim()) ctx.errors.push(`${at}: bad name`);
    if (/^[^a-z]*$/.test(r.name) && r.name.length > 4) ctx.errors.push(`${at}: name is all upper case`);
    for (const g of r.breed_groups) if (g.includes(',')) ctx.errors.push(`${at}: group "${g}" contains a comma`);
    if (!r.extinct && r.species_id === 'dog' && r.breed_groups.length === 0) ctx.errors.push(`${at}: no breed group`);
    const allowed: readonly string[] = r.species_id === 'dog' ? DOG_REGISTRIES : CAT_REGISTRIES;
    for (const [k, v] of Object.entries(r.recognition)) {
      if (!allowed.includes(k)) ctx.errors.push(`${at}: recognition key ${k} not allowed for ${r.species_id}`);
      if (!v || !RECOGNITION_VALUES.has(v)) ctx.errors.push(`${at}: recognition ${k} = ${v}`);
    }
    checkRanges(ctx, r);
    if (r.country_code !== (r.country_codes[0] ?? null))
      ctx.errors.push(`${at}: country_code is not the first of country_codes`);
    for (const c of r.country_codes) if (!/^[A-Z]{2}$/.test(c)) ctx.errors.push(`${at}: bad country code ${c}`);
    for (const lang of Object.keys(r.i18n))
      if (!(I18N_LANGS as readonly string[]).includes(lang)) ctx.errors.push(`${at}: i18n language ${lang}`);
    for (const lang of MAIN_LANGS) {
      const g = r.i18n[lang]?.breed_groups;
      if (g && g.length !== r.breed_groups.length) ctx.errors.push(`${at}: ${lang} group translations do not line up`);
    }
    for (const u of [...r.source_urls, ...(r.wikipedia_url ? [r.wikipedia_url] : [])])
      if (!/^https:\/\//.test(u)) ctx.errors.push(`${at}: URL not https: ${u}`);
    for (const v of r.venom_codes) if (!/^VeNom:\d+$/.test(v)) ctx.errors.push(`${at}: bad VeNom code ${v}`);
  }
}

/**
 * Ranges positive and ordered; a height without `max` only where a standard states a minimum (never an estimate);
 * min = max exactly where the field is listed in `one_figure_fields` (one figure known, not a range of one value).
 */
function checkRanges(ctx: BuildContext, r: BreedRecord): void {
  const at = `breed ${r.id}`;
  const fields = { height: r.height, weight: r.weight, life_span: r.life_span && { metric: r.life_span } };
  for (const [field, m] of Object.entries(fields)) {
    if (!m) continue;
    const ranges: { min: number; max?: number }[] = 'imperial' in m ? [m.imperial, m.metric] : [m.metric];
    for (const rg of ranges) {
      if (!(rg.min > 0 && (rg.max === undefined || rg.min <= rg.max)))
        ctx.errors.push(`${at}: bad ${field} range ${JSON.stringify(rg)}`);
      if (rg.max === undefined && (field !== 'height' || r.estimated_fields.includes(field)))
        ctx.errors.push(`${at}: ${field} without a maximum must be a standard's stated minimum height`);
    }
    const single = ranges.some((rg) => rg.min === rg.max);
    if (single !== r.one_figure_fields.includes(field))
      ctx.errors.push(
        single
          ? `${at}: ${field} has min = max; list it in one_figure in dog-measurements.json or give a real range`
          : `${at}: ${field} is listed as one figure but is a range`,
      );
  }
  if (r.life_span && r.life_span.max > 30) ctx.errors.push(`${at}: bad life span`);
}

async function buildCategories(ctx: BuildContext): Promise<Category[]> {
  const file = await readJson<{
    categories: { id: number; name: string; species_ids: SpeciesId[]; i18n: Record<MainLang, string> }[];
  }>(path.join(AUTHORED_DIR, 'categories.json'));
  const ids = new Set<number>();
  const names = new Set<string>();
  const out: Category[] = [];
  for (const c of [...file.categories].sort((a, b) => a.id - b.id)) {
    if (!Number.isInteger(c.id) || c.id < 1 || ids.has(c.id)) ctx.errors.push(`category ${c.id}: bad or duplicate id`);
    if (names.has(c.name.toLowerCase())) ctx.errors.push(`category ${c.id}: duplicate name`);
    ids.add(c.id);
    names.add(c.name.toLowerCase());
    const species = (['dog', 'cat'] as const).filter((s) => c.species_ids.includes(s));
    if (species.length === 0 || species.length !== c.species_ids.length)
      ctx.errors.push(`category ${c.id}: bad species_ids`);
    for (const lang of MAIN_LANGS) if (!c.i18n[lang]) ctx.errors.push(`category ${c.id}: missing ${lang} name`);
    out.push({
      id: c.id,
      name: c.name,
      species_ids: species,
      i18n: { de: { name: c.i18n.de }, es: { name: c.i18n.es }, fr: { name: c.i18n.fr } },
    });
  }
  if (out.length < 15) ctx.errors.push(`only ${out.length} categories (at least 15 expected)`);
  return out;
}

/**
 * `data/breed-omia.json`: every living breed whose VBO terms carry an OMIA cross-reference, i.e. a breed in which OMIA
 * lists inherited disorders or traits. Not served; the health-tips build reports its breed-specific coverage against it.
 */
function omiaFile(records: BreedRecord[], maps: Map<string, string[]>[]): unknown {
  const breeds: Record<string, { species_id: SpeciesId; omia_breed_ids: string[] }> = {};
  for (const r of [...records].sort((a, b) => compareStrings(a.id, b.id))) {
    const ids = maps.flatMap((m) => m.get(r.id) ?? []);
    if (!r.extinct && ids.length > 0) breeds[r.id] = { species_id: r.species_id, omia_breed_ids: ids };
  }
  return {
    _comment:
      'Generated by scripts/data/breeds.ts from the omia_xref_internal column of the VBO tables; do not edit. A breed is listed when one of its VBO terms carries an OMIA breed id.',
    breeds,
  };
}

export interface BreedBuildSummary {
  files: string[];
  counts: Record<string, number>;
  completeness: Record<SpeciesId, SpeciesCompleteness>;
  notes: string[];
}

/** Builds and writes the three data files; throws (writing nothing) when any check fails. */
export async function buildBreedData(): Promise<void> {
  const summary = await runBuild();
  for (const line of completenessReport(summary.completeness)) console.log(line);
}

export async function runBuild(options: { write?: boolean } = {}): Promise<BreedBuildSummary> {
  const dataDir = sharedDataDir();
  if (!existsSync(dataDir)) throw new Error(`shared data folder not found: ${dataDir} (set SHARED_DATA_DIR)`);
  const ctx: BuildContext = {
    dataDir,
    authoredDir: AUTHORED_DIR,
    groups: await readJson<GroupsFile>(path.join(AUTHORED_DIR, 'breed-groups.json')),
    countries: await readJson<CountriesFile>(path.join(AUTHORED_DIR, 'countries.json')),
    temperamentVocabulary: await readJson(path.join(AUTHORED_DIR, 'temperament-i18n.json')),
    takenIds: new Set<string>(),
    errors: [],
    notes: [],
  };
  for (const [word, t] of Object.entries(ctx.temperamentVocabulary)) {
    if (!/^[A-Z][a-z-]+$/.test(word))
      ctx.errors.push(`temperament-i18n.json: "${word}" is not a capitalised English word`);
    for (const lang of MAIN_LANGS) if (!t[lang]) ctx.errors.push(`temperament-i18n.json: "${word}" has no ${lang}`);
  }

  const dogs = await buildDogs(ctx);
  const cats = await buildCats(ctx);
  const mixed = await buildMixed(ctx, { dog: dogs.claimedVbo, cat: cats.claimedVbo });
  const records = [...dogs.records, ...cats.records, ...mixed];
  const altNames = await readJson<AltNamesFile>(path.join(AUTHORED_DIR, 'breed-alt-names.json'));
  for (const [id, names] of Object.entries(altNames.breeds)) {
    const r = records.find((x) => x.id === id);
    if (!r) ctx.errors.push(`breed-alt-names.json: unknown id ${id}`);
    else r.alt_names = uniqueBy([...r.alt_names, ...names], nameKey);
  }
  for (const [id, names] of Object.entries(altNames.drop)) {
    const r = records.find((x) => x.id === id);
    for (const name of Object.keys(names)) {
      if (!r?.alt_names.includes(name)) ctx.errors.push(`breed-alt-names.json: ${id} has no name "${name}" to drop`);
      else r.alt_names = r.alt_names.filter((a) => a !== name);
    }
  }
  pruneAltNames(records);
  fillAltNamesFromTranslations(records);
  checkSharedNames(ctx, records, altNames.shared);
  records.sort(
    (a, b) => compareStrings(a.species_id, b.species_id) || compareNames(a.name, b.name) || compareStrings(a.id, b.id),
  );
  validateBreeds(ctx, records);

  const exceptions = (
    await readJson<{ fields: Partial<Record<SpecField, Record<string, string>>> }>(
      path.join(AUTHORED_DIR, 'breed-field-exceptions.json'),
    )
  ).fields;
  const completeness = fieldCompleteness(ctx, records, exceptions);

  const speciesOf = new Map(records.map((r) => [r.id, r.species_id]));
  const colours = await buildColours(ctx, speciesOf, cats.colourSpecs);
  const categories = await buildCategories(ctx);

  // cross-checks against the name lists in the corpora (informational)
  const known = new Set(records.flatMap((r) => [r.name, ...r.alt_names].map(nameKey)));
  const corporaDogs = await readCorporaDogs(dataDir);
  const corporaCats = await readCorporaCats(dataDir);
  const unmatchedDogs = corporaDogs.filter(
    (n) => !known.has(nameKey(n.replace(/&amp;/g, '&').replace(/\s*\(dog breed\)/i, ''))),
  );
  const unmatchedCats = corporaCats.filter((n) => !known.has(nameKey(n)));
  ctx.notes.push(
    `corpora: ${corporaDogs.length - unmatchedDogs.length}/${corporaDogs.length} dog names and ${corporaCats.length - unmatchedCats.length}/${corporaCats.length} cat names match a record name or alternative name`,
  );

  if (ctx.errors.length > 0) {
    throw new Error(
      `breed data build failed with ${ctx.errors.length} problem(s):\n  ${[...new Set(ctx.errors)].join('\n  ')}`,
    );
  }

  const dogsOut = records.filter((r) => r.species_id === 'dog');
  const catsOut = records.filter((r) => r.species_id === 'cat');
  const counts: Record<string, number> = {
    breeds: records.length,
    dogs: dogsOut.length,
    dogs_fci: dogsOut.filter((r) => r.registry_ids.fci !== null).length,
    dogs_fci_provisional: dogsOut.filter((r) => r.registry_ids.fci_provisional === true).length,
    dogs_akc: dogsOut.filter((r) => r.registry_ids.akc).length,
    dogs_akc_only: dogsOut.filter((r) => r.registry_ids.akc && r.registry_ids.fci === null).length,
    dogs_extinct: dogsOut.filter((r) => r.extinct).length,
    dogs_with_temperament: dogsOut.filter((r) => r.temperament.length > 0).length,
    dogs_with_weight: dogsOut.filter((r) => r.weight !== null).length,
    dogs_with_height: dogsOut.filter((r) => r.height !== null).length,
    dogs_with_life_span: dogsOut.filter((r) => r.life_span !== null).length,
    dogs_with_venom: dogsOut.filter((r) => r.venom_codes.length > 0).length,
    dogs_with_wikipedia: dogsOut.filter((r) => r.wikipedia_url !== null).length,
    dogs_measured_from_akc: dogs.stats.measured_akc ?? 0,
    dogs_measured_from_authored: dogs.stats.measured_authored ?? 0,
    cats: catsOut.length,
    cats_cfa: catsOut.filter((r) => r.recognition.cfa === 'full' || r.recognition.cfa === 'provisional').length,
    cats_tica: catsOut.filter((r) => r.recognition.tica === 'full' || r.recognition.tica === 'provisional').length,
    cats_fife: catsOut.filter((r) => r.recognition.fife === 'full' || r.recognition.fife === 'provisional').length,
    cats_with_temperament: catsOut.filter((r) => r.temperament.length > 0).length,
    venom_codes: new Set(records.flatMap((r) => r.venom_codes)).size,
    breed_groups: new Set(records.flatMap((r) => r.breed_groups)).size,
    ...colours.stats,
    categories: categories.length,
  };

  // The reader's schema has the last word: a record it would refuse is never written.
  z.array(breedRecord).parse(records);
  const files: string[] = [];
  if (options.write !== false) {
    await mkdir(OUT_DIR, { recursive: true });
    const outputs: [string, unknown][] = [
      ['breeds.json', records],
      ['breed-omia.json', omiaFile(records, [dogs.omia, cats.omia])],
      ['colours.json', { variants: colours.variants, breeds: colours.breeds }],
      ['categories.json', categories],
    ];
    for (const [name, value] of outputs) {
      const file = path.join(OUT_DIR, name);
      await writeFile(file, toJson(value), 'utf8');
      files.push(path.relative(REPO_ROOT, file));
    }
  }
  return { files, counts, completeness, notes: ctx.notes };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  runBuild()
    .then((s) => {
      for (const f of s.files) console.log(`wrote ${f}`);
      for (const line of completenessReport(s.completeness)) console.log(line);
      console.log(
        Object.entries(s.counts)
          .map(([k, v]) => `${k}=${v}`)
          .join(' '),
      );
      if (process.env.BREEDS_VERBOSE) for (const n of s.notes) console.log(`note: ${n}`);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    });
}
