/**
 * Health-tips data set builder.
 *
 * Reads the hand-written tips in `data/authored/health-tips.json`, checks every
 * rule documented in `docs/data.md` (section "Health tips"), derives each `id`
 * from the slug and writes `data/health-tips.json` deterministically: records
 * sorted by id, fixed key order, two-space JSON with a final newline and no
 * timestamps, so the same input always gives byte-identical output.
 *
 * Run directly: `npx tsx scripts/data/health-tips.ts` (exit code 1 and a list of
 * problems on any violation).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type BreedRef,
  britishSpelling,
  byId,
  checkUrl,
  countSentences,
  idFromSlug,
  isNonEmptyString,
  isRecord,
  loadBreedRefs,
  TEXT_PROBLEM,
  wordsOf,
} from './authoring.ts';
import * as z from 'zod/mini';
import {
  HEALTH_TIP_CATEGORIES,
  healthTipRecord,
  type HealthTipRecord,
  LIFE_STAGES,
} from '../../shared/domain/reference/records.ts';
import { SPECIES } from '../../shared/domain/reference/species.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
export const HEALTH_TIPS_AUTHORED_FILE = path.join(REPO_ROOT, 'data', 'authored', 'health-tips.json');
export const HEALTH_TIPS_OUTPUT_FILE = path.join(REPO_ROOT, 'data', 'health-tips.json');
const BREEDS_FILE = path.join(REPO_ROOT, 'data', 'breeds.json');
const BREED_OMIA_FILE = path.join(REPO_ROOT, 'data', 'breed-omia.json');

export type HealthTipCategory = (typeof HEALTH_TIP_CATEGORIES)[number];

/** The spec's example categories; each must be well represented. */
const CORE_CATEGORIES: readonly HealthTipCategory[] = ['nutrition', 'exercise', 'grooming', 'preventative_care'];

export type SpeciesId = (typeof SPECIES)[number];
export type LifeStage = (typeof LIFE_STAGES)[number];

export const REQUIRED_LANGS = ['de', 'es', 'fr'] as const;
export const OPTIONAL_LANGS = ['en-gb'] as const;
const LANG_ORDER = [...REQUIRED_LANGS, ...OPTIONAL_LANGS] as const;
type Lang = (typeof LANG_ORDER)[number];

export interface TipText {
  title: string;
  tip: string;
}

/** A published tip is the reader's record (shared/domain/reference/records.ts). */
export type HealthTip = HealthTipRecord;

export type AuthoredHealthTip = Omit<HealthTip, 'id'>;

/** Minimum coverage the data set must keep. */
export const HEALTH_TIP_MINIMUMS = {
  total: 160,
  perCoreCategory: 15,
  perSpecies: 40,
  breedSpecific: 40,
  distinctBreeds: 20,
} as const;

const MAX_TITLE = 90;
const MAX_TIP = 420;

/**
 * US -> British spellings. The base English text is written in US spelling; a
 * tip carries an `en-gb` variant exactly when its English text contains one of
 * these US words, and the variant must not contain any of them.
 */
export const US_TO_UK: Readonly<Record<string, string>> = {
  color: 'colour',
  colors: 'colours',
  colored: 'coloured',
  behavior: 'behaviour',
  behaviors: 'behaviours',
  behavioral: 'behavioural',
  center: 'centre',
  centers: 'centres',
  favorite: 'favourite',
  favorites: 'favourites',
  favor: 'favour',
  favors: 'favours',
  favored: 'favoured',
  gray: 'grey',
  odor: 'odour',
  odors: 'odours',
  flavor: 'flavour',
  flavors: 'flavours',
  flavored: 'flavoured',
  neighbor: 'neighbour',
  recognize: 'recognise',
  recognizes: 'recognises',
  recognized: 'recognised',
  organize: 'organise',
  organized: 'organised',
  socialize: 'socialise',
  socialized: 'socialised',
  socialization: 'socialisation',
  prioritize: 'prioritise',
  minimize: 'minimise',
  specialized: 'specialised',
  analyze: 'analyse',
  fiber: 'fibre',
  liter: 'litre',
  liters: 'litres',
  meter: 'metre',
  meters: 'metres',
  aging: 'ageing',
  leukemia: 'leukaemia',
  anemia: 'anaemia',
  diarrhea: 'diarrhoea',
  tumor: 'tumour',
  tumors: 'tumours',
  anesthesia: 'anaesthesia',
  anesthetic: 'anaesthetic',
  feces: 'faeces',
  fecal: 'faecal',
  esophagus: 'oesophagus',
  estrus: 'oestrus',
  hemorrhage: 'haemorrhage',
  labeled: 'labelled',
  labeling: 'labelling',
  traveling: 'travelling',
  traveled: 'travelled',
  discolored: 'discoloured',
  molt: 'moult',
  molting: 'moulting',
  mold: 'mould',
  program: 'programme',
  programs: 'programmes',
  toward: 'towards',
  cozy: 'cosy',
  pediatric: 'paediatric',
  defense: 'defence',
  catalog: 'catalogue',
};
// list only: an -ize word counts as US spelling here only when US_TO_UK names it
const { isBritishOnly, isUsSpelling, toBritish } = britishSpelling(US_TO_UK, { izeToIse: false });

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ID_RE = /^[A-Za-z0-9]{10}$/;

/**
 * Validates the authored tips. Returns the list of problems (empty when valid).
 * `breeds` is the breed-id map from data/breeds.json, or null to skip that check.
 */
export function validateHealthTips(input: unknown, breeds: Map<string, BreedRef> | null): string[] {
  const errors: string[] = [];
  if (!Array.isArray(input)) return ['data/authored/health-tips.json must be a JSON array'];
  const slugs = new Set<string>();
  const ids = new Map<string, string>();
  const allowedKeys = new Set([
    'slug',
    'title',
    'tip',
    'category',
    'species_id',
    'breed_id',
    'life_stage',
    'sources',
    'i18n',
  ]);

  input.forEach((raw, index) => {
    const label = `tip #${index + 1}${isRecord(raw) && typeof raw.slug === 'string' ? ` (${raw.slug})` : ''}`;
    if (!isRecord(raw)) {
      errors.push(`${label}: must be an object`);
      return;
    }
    for (const key of Object.keys(raw)) if (!allowedKeys.has(key)) errors.push(`${label}: unknown field "${key}"`);

    // slug and id
    if (typeof raw.slug !== 'string' || !SLUG_RE.test(raw.slug)) {
      errors.push(`${label}: slug must be lower-case kebab-case ASCII`);
    } else {
      if (slugs.has(raw.slug)) errors.push(`${label}: duplicate slug`);
      slugs.add(raw.slug);
      const id = idFromSlug(raw.slug);
      if (!ID_RE.test(id)) errors.push(`${label}: derived id "${id}" is not 10 base62 characters`);
      const other = ids.get(id);
      if (other) errors.push(`${label}: id ${id} collides with ${other}`);
      ids.set(id, raw.slug);
    }

    // English text (US spelling)
    for (const key of ['title', 'tip'] as const) {
      const v = raw[key];
      if (!isNonEmptyString(v)) {
        errors.push(`${label}: ${key} is required`);
        continue;
      }
      if (TEXT_PROBLEM.test(v)) errors.push(`${label}: ${key} has stray whitespace or markup`);
      for (const w of wordsOf(v)) {
        if (isBritishOnly(w)) errors.push(`${label}: ${key} uses British spelling "${w}"; base English is US spelling`);
      }
    }
    if (isNonEmptyString(raw.title)) {
      if (raw.title.length > MAX_TITLE) errors.push(`${label}: title longer than ${MAX_TITLE} characters`);
      if (/[.!?]$/.test(raw.title)) errors.push(`${label}: title must not end with sentence punctuation`);
    }
    if (isNonEmptyString(raw.tip)) {
      if (raw.tip.length > MAX_TIP) errors.push(`${label}: tip longer than ${MAX_TIP} characters`);
      const n = countSentences(raw.tip);
      if (n < 1 || n > 3) errors.push(`${label}: tip has ${n} sentences (1-3 allowed)`);
      if (!/[.!?]$/.test(raw.tip)) errors.push(`${label}: tip must end with a full stop`);
    }

    // enums
    if (!HEALTH_TIP_CATEGORIES.includes(raw.category as HealthTipCategory)) {
      errors.push(`${label}: category must be one of ${HEALTH_TIP_CATEGORIES.join(', ')}`);
    }
    if (raw.species_id !== null && !SPECIES.includes(raw.species_id as SpeciesId)) {
      errors.push(`${label}: species_id must be "dog", "cat" or null`);
    }
    if (raw.life_stage !== null && !LIFE_STAGES.includes(raw.life_stage as LifeStage)) {
      errors.push(`${label}: life_stage must be ${LIFE_STAGES.join(', ')} or null`);
    }

    // breed
    if (raw.breed_id !== null) {
      if (typeof raw.breed_id !== 'string' || !SLUG_RE.test(raw.breed_id)) {
        errors.push(`${label}: breed_id must be a breed slug or null`);
      } else {
        if (raw.species_id === null) errors.push(`${label}: a breed-specific tip needs a species_id`);
        if (breeds) {
          const b = breeds.get(raw.breed_id);
          if (!b) errors.push(`${label}: breed_id "${raw.breed_id}" does not exist in data/breeds.json`);
          else if (b.species && raw.species_id && b.species !== raw.species_id) {
            errors.push(
              `${label}: breed_id "${raw.breed_id}" is a ${b.species} breed but species_id is ${String(raw.species_id)}`,
            );
          }
        }
      }
    }

    // sources
    if (!Array.isArray(raw.sources) || raw.sources.length === 0) {
      errors.push(`${label}: at least one source is required`);
    } else {
      const urls = new Set<string>();
      raw.sources.forEach((s, i) => {
        if (!isRecord(s)) {
          errors.push(`${label}: sources[${i}] must be an object`);
          return;
        }
        const keys = Object.keys(s).sort().join(',');
        if (keys !== 'name,url') errors.push(`${label}: sources[${i}] must have exactly url and name`);
        const problem = checkUrl(s.url, 'https');
        if (problem) errors.push(`${label}: sources[${i}].url ${problem}`);
        else if (typeof raw.breed_id === 'string' && !isSpecificSourcePage(s.url as string)) {
          errors.push(
            `${label}: sources[${i}].url is an index or home page; a breed-specific tip cites a specific page`,
          );
        }
        if (!isNonEmptyString(s.name)) errors.push(`${label}: sources[${i}].name is required`);
        if (typeof s.url === 'string') {
          if (urls.has(s.url)) errors.push(`${label}: duplicate source ${s.url}`);
          urls.add(s.url);
        }
      });
    }

    // translations
    if (!isRecord(raw.i18n)) {
      errors.push(`${label}: i18n is required`);
      return;
    }
    for (const key of Object.keys(raw.i18n)) {
      if (!(LANG_ORDER as readonly string[]).includes(key))
        errors.push(`${label}: i18n.${key} is not a supported language`);
    }
    for (const lang of LANG_ORDER) {
      const tr = raw.i18n[lang];
      if (tr === undefined) {
        if ((REQUIRED_LANGS as readonly string[]).includes(lang)) errors.push(`${label}: i18n.${lang} is missing`);
        continue;
      }
      if (!isRecord(tr) || Object.keys(tr).sort().join(',') !== 'tip,title') {
        errors.push(`${label}: i18n.${lang} must have exactly title and tip`);
        continue;
      }
      for (const key of ['title', 'tip'] as const) {
        const v = tr[key];
        if (!isNonEmptyString(v)) {
          errors.push(`${label}: i18n.${lang}.${key} is required`);
          continue;
        }
        if (TEXT_PROBLEM.test(v)) errors.push(`${label}: i18n.${lang}.${key} has stray whitespace or markup`);
        if (lang !== 'en-gb' && v === raw[key]) errors.push(`${label}: i18n.${lang}.${key} is not translated`);
      }
      if (isNonEmptyString(tr.tip)) {
        const n = countSentences(tr.tip, { germanOrdinals: lang === 'de' });
        if (n < 1 || n > 3) errors.push(`${label}: i18n.${lang}.tip has ${n} sentences (1-3 allowed)`);
      }
    }
    if (isNonEmptyString(raw.title) && isNonEmptyString(raw.tip)) {
      const needsGb = [...wordsOf(raw.title), ...wordsOf(raw.tip)].some(isUsSpelling);
      const gb = raw.i18n['en-gb'];
      if (needsGb && gb === undefined) errors.push(`${label}: English uses US spelling but there is no en-gb variant`);
      if (!needsGb && gb !== undefined) errors.push(`${label}: en-gb given although no British spelling differs`);
      if (needsGb && isRecord(gb) && isNonEmptyString(gb.title) && isNonEmptyString(gb.tip)) {
        for (const w of [...wordsOf(gb.title), ...wordsOf(gb.tip)]) {
          if (isUsSpelling(w)) errors.push(`${label}: en-gb still uses US spelling "${w}"`);
        }
        if (gb.title !== toBritish(raw.title) || gb.tip !== toBritish(raw.tip)) {
          errors.push(`${label}: en-gb must differ from the English text only in spelling`);
        }
      }
    }
  });

  // coverage
  const tips = input.filter(isRecord);
  const count = (pred: (t: Record<string, unknown>) => boolean): number => tips.filter(pred).length;
  const m = HEALTH_TIP_MINIMUMS;
  if (tips.length < m.total) errors.push(`coverage: ${tips.length} tips, at least ${m.total} required`);
  for (const c of CORE_CATEGORIES) {
    const n = count((t) => t.category === c);
    if (n < m.perCoreCategory)
      errors.push(`coverage: category ${c} has ${n} tips, at least ${m.perCoreCategory} required`);
  }
  for (const sp of SPECIES) {
    const n = count((t) => t.species_id === sp);
    if (n < m.perSpecies) errors.push(`coverage: ${n} ${sp}-only tips, at least ${m.perSpecies} required`);
  }
  const breedTips = tips.filter((t) => typeof t.breed_id === 'string');
  if (breedTips.length < m.breedSpecific)
    errors.push(`coverage: ${breedTips.length} breed-specific tips, at least ${m.breedSpecific} required`);
  const distinct = new Set(breedTips.map((t) => t.breed_id));
  if (distinct.size < m.distinctBreeds)
    errors.push(`coverage: ${distinct.size} distinct breeds, at least ${m.distinctBreeds} required`);
  return errors;
}

/** Published record in fixed key order. */
function toPublished(t: AuthoredHealthTip): HealthTip {
  const i18n: Partial<Record<Lang, TipText>> = {};
  for (const lang of LANG_ORDER) {
    const tr = t.i18n[lang];
    if (tr) i18n[lang] = { title: tr.title, tip: tr.tip };
  }
  return {
    id: idFromSlug(t.slug),
    slug: t.slug,
    title: t.title,
    tip: t.tip,
    category: t.category,
    species_id: t.species_id,
    breed_id: t.breed_id,
    life_stage: t.life_stage,
    sources: t.sources.map((s) => ({ url: s.url, name: s.name })),
    i18n,
  };
}

/**
 * Index pages shared by many tips (a publisher's owner-advice section, a health-scheme overview). A breed-specific tip
 * may cite neither these nor a site's home page (issue 15: "a specific source page"); general tips still may.
 */
const INDEX_PAGES = new Set([
  'https://www.merckvetmanual.com/dog-owners',
  'https://www.merckvetmanual.com/cat-owners',
  'https://icatcare.org/advice/',
  'https://www.rspca.org.uk/adviceandwelfare/pets/dogs',
  'https://www.bva.co.uk/canine-health-schemes/',
  'https://www.vet.cornell.edu/departments-centers-and-institutes/riney-canine-health-center',
  'https://www.vet.cornell.edu/departments-centers-and-institutes/cornell-feline-health-center/health-information/feline-health-topics',
]);

/** True when the URL is a specific page: neither a site's home page nor one of the index pages above. */
export function isSpecificSourcePage(url: string): boolean {
  return !INDEX_PAGES.has(url) && !['', '/'].includes(new URL(url).pathname);
}

/** Breed-specific coverage against the breeds in which OMIA lists inherited disorders or traits (per species). */
export interface OmiaCoverage {
  species: Record<SpeciesId, { listed: number; withTip: number }>;
  /** Listed breeds without a breed-specific tip, by id. */
  missing: string[];
}

/**
 * Compares the breed-specific tips with `data/breed-omia.json` (written by the breed build from VBO's OMIA
 * cross-references). Throws when a listed breed id is not in the tips' breed map, so the two files cannot drift.
 */
export function omiaCoverage(
  tips: readonly AuthoredHealthTip[],
  omiaBreeds: Record<string, { species_id: SpeciesId }>,
): OmiaCoverage {
  const tipped = new Set(tips.map((t) => t.breed_id).filter((id): id is string => id !== null));
  const species = { dog: { listed: 0, withTip: 0 }, cat: { listed: 0, withTip: 0 } } as OmiaCoverage['species'];
  const missing: string[] = [];
  for (const [id, entry] of Object.entries(omiaBreeds)) {
    species[entry.species_id].listed++;
    if (tipped.has(id)) species[entry.species_id].withTip++;
    else missing.push(id);
  }
  return { species, missing: missing.sort() };
}

/** The lines `npm run data:build` prints about breed-specific coverage. */
export function omiaCoverageReport(c: OmiaCoverage): string[] {
  const { dog, cat } = c.species;
  return [
    `health tips: breeds with an OMIA predisposition (VBO cross-reference) ${dog.listed + cat.listed} (${dog.listed} dogs, ${cat.listed} cats); with a breed-specific tip ${dog.withTip + cat.withTip} (${dog.withTip} dogs, ${cat.withTip} cats)`,
    `health tips: OMIA-listed breeds without a tip (${c.missing.length}): ${c.missing.join(', ')}`,
  ];
}

export interface BuildHealthTipsResult {
  count: number;
  outputFile: string;
  breedsChecked: boolean;
  /** Null while data/breed-omia.json is absent (the breed build writes it). */
  omia: OmiaCoverage | null;
}

export interface BuildHealthTipsOptions {
  authoredFile?: string;
  outputFile?: string;
  breedsFile?: string;
  breedOmiaFile?: string;
}

/** Validates the authored tips and writes data/health-tips.json. Throws with every problem listed. */
export async function buildHealthTips(options: BuildHealthTipsOptions = {}): Promise<BuildHealthTipsResult> {
  const authoredFile = options.authoredFile ?? HEALTH_TIPS_AUTHORED_FILE;
  const outputFile = options.outputFile ?? HEALTH_TIPS_OUTPUT_FILE;
  const input: unknown = JSON.parse(await readFile(authoredFile, 'utf8'));
  const breeds = await loadBreedRefs(options.breedsFile ?? BREEDS_FILE);
  const errors = validateHealthTips(input, breeds);
  if (errors.length > 0) {
    throw new Error(`health tips: ${errors.length} problem(s)\n  - ${errors.join('\n  - ')}`);
  }
  const published = (input as AuthoredHealthTip[]).map(toPublished).sort(byId);
  // The reader's schema has the last word: a record it would refuse is never written.
  z.array(healthTipRecord).parse(published);
  await mkdir(path.dirname(outputFile), { recursive: true });
  await writeFile(outputFile, `${JSON.stringify(published, null, 2)}\n`, 'utf8');
  const omiaFile = options.breedOmiaFile ?? BREED_OMIA_FILE;
  const omia = existsSync(omiaFile)
    ? omiaCoverage(
        input as AuthoredHealthTip[],
        (JSON.parse(await readFile(omiaFile, 'utf8')) as { breeds: Record<string, { species_id: SpeciesId }> }).breeds,
      )
    : null;
  return { count: published.length, outputFile, breedsChecked: breeds !== null, omia };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  buildHealthTips()
    .then((r) => {
      const note = r.breedsChecked
        ? 'breed ids checked against data/breeds.json'
        : 'data/breeds.json absent, breed ids not cross-checked';
      console.log(`health tips: wrote ${r.count} tips to ${path.relative(REPO_ROOT, r.outputFile)} (${note})`);
      if (r.omia) for (const line of omiaCoverageReport(r.omia)) console.log(line);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
