/**
 * Facts data set builder.
 *
 * Reads the hand-authored facts in `data/authored/facts.json`, validates every
 * rule documented in `docs/data.md` (section "Facts"), derives `slug` and `id`
 * and writes `data/facts.json` deterministically (stable order, stable key
 * order, no timestamps): the same input always gives byte-identical output.
 *
 * Run directly: `npx tsx scripts/data/facts.ts` (exit code 1 on any violation).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  britishSpelling,
  byId,
  countSentences,
  idFromSlug,
  isNonEmptyString,
  loadBreedRefs,
  TEXT_PROBLEM,
  wordsOf,
} from './authoring.ts';
import * as z from 'zod/mini';
import { FACT_CATEGORIES, factRecord, type FactRecord } from '../../shared/domain/reference/records.ts';
import { SPECIES } from '../../shared/domain/reference/species.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const AUTHORED_FILE = path.join(REPO_ROOT, 'data', 'authored', 'facts.json');
const OUTPUT_FILE = path.join(REPO_ROOT, 'data', 'facts.json');
const BREEDS_FILE = path.join(REPO_ROOT, 'data', 'breeds.json');
/** Raw FCI nomenclature table (paiv/fci-breeds, MIT), kept beside the repository in shared/. */
const FCI_TABLE = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'fci', 'fci-breeds.csv');

export type SpeciesId = (typeof SPECIES)[number];
export type FactCategory = (typeof FACT_CATEGORIES)[number];

/** Languages every fact must be translated into; en-gb is optional (only where spelling differs). */
export const REQUIRED_LANGS = ['de', 'es', 'fr'] as const;
export const OPTIONAL_LANGS = ['en-gb'] as const;
const LANG_ORDER = [...REQUIRED_LANGS, ...OPTIONAL_LANGS] as const;
type Lang = (typeof LANG_ORDER)[number];

export interface FactText {
  title: string;
  fact: string;
}

/** A published fact is the reader's record (shared/domain/reference/records.ts); authors write all but id and slug. */
export type Fact = FactRecord;
export type AuthoredFact = Omit<Fact, 'id' | 'slug'>;

/** Publishers accepted as sources, by URL host. */
export const SOURCE_HOSTS: Record<string, string> = {
  'en.wikipedia.org': 'Wikipedia',
  'www.fci.be': 'Fédération Cynologique Internationale (FCI)',
  'doi.org': '(journal, see source_name)',
  'www.akc.org': 'American Kennel Club',
  'cfa.org': "Cat Fanciers' Association",
  'tica.org': 'The International Cat Association',
  'www.vet.cornell.edu': 'Cornell University College of Veterinary Medicine',
  'vcahospitals.com': 'VCA Animal Hospitals',
  'www.merckvetmanual.com': 'Merck Veterinary Manual',
  'www.rspca.org.uk': 'RSPCA',
  'www.pdsa.org.uk': 'PDSA',
  'www.aspca.org': 'ASPCA',
  'www.cdc.gov': 'US Centers for Disease Control and Prevention',
  'www.fda.gov': 'US Food and Drug Administration',
};

// Limits
export const MIN_TOTAL = 320;
export const MIN_PER_SPECIES = 120;
export const MIN_BREED_TIED = 110;
export const MIN_DISTINCT_BREEDS = 40;
export const MAX_FACTS_PER_BREED = 8;
const MAX_TITLE = 90;
const MIN_FACT = 40;
const MAX_FACT = 420;
const NEAR_DUPLICATE_JACCARD = 0.45;
/** Two facts citing the same source are more likely one fact told twice: a lower bar (the Cyprus burial pair was 0.38). */
const SAME_SOURCE_JACCARD = 0.3;

/**
 * US -> British spellings used to check the en-gb variants. The base English is
 * written in US spelling; a fact needs an en-gb variant exactly when its English
 * text contains one of these US words.
 */
export const US_TO_UK: Record<string, string> = {
  color: 'colour',
  colors: 'colours',
  colored: 'coloured',
  coloring: 'colouring',
  coloration: 'colouration',
  colorful: 'colourful',
  colorpoint: 'colourpoint',
  colorpoints: 'colourpoints',
  bicolor: 'bicolour',
  tricolor: 'tricolour',
  behavior: 'behaviour',
  behaviors: 'behaviours',
  behavioral: 'behavioural',
  center: 'centre',
  centers: 'centres',
  centered: 'centred',
  favorite: 'favourite',
  favorites: 'favourites',
  gray: 'grey',
  grayish: 'greyish',
  honor: 'honour',
  honored: 'honoured',
  honors: 'honours',
  harbor: 'harbour',
  harbors: 'harbours',
  neighbor: 'neighbour',
  neighbors: 'neighbours',
  neighboring: 'neighbouring',
  odor: 'odour',
  odors: 'odours',
  labor: 'labour',
  defense: 'defence',
  recognize: 'recognise',
  recognizes: 'recognises',
  recognized: 'recognised',
  recognizing: 'recognising',
  organization: 'organisation',
  organizations: 'organisations',
  specialized: 'specialised',
  specialize: 'specialise',
  realized: 'realised',
  analyzed: 'analysed',
  analyze: 'analyse',
  standardized: 'standardised',
  civilization: 'civilisation',
  civilizations: 'civilisations',
  characterized: 'characterised',
  memorize: 'memorise',
  fiber: 'fibre',
  fibers: 'fibres',
  meter: 'metre',
  meters: 'metres',
  kilometers: 'kilometres',
  kilometer: 'kilometre',
  centimeters: 'centimetres',
  centimeter: 'centimetre',
  millimeters: 'millimetres',
  liters: 'litres',
  liter: 'litre',
  aging: 'ageing',
  leukemia: 'leukaemia',
  anemia: 'anaemia',
  diarrhea: 'diarrhoea',
  tumor: 'tumour',
  tumors: 'tumours',
  estrus: 'oestrus',
  esophagus: 'oesophagus',
  hemoglobin: 'haemoglobin',
  anesthesia: 'anaesthesia',
  flavor: 'flavour',
  flavors: 'flavours',
  traveled: 'travelled',
  traveling: 'travelling',
  labeled: 'labelled',
  modeled: 'modelled',
  mustache: 'moustache',
  skeptical: 'sceptical',
  maneuver: 'manoeuvre',
  maneuvers: 'manoeuvres',
  artifact: 'artefact',
  artifacts: 'artefacts',
  vigor: 'vigour',
  humor: 'humour',
  rumor: 'rumour',
  catalog: 'catalogue',
  program: 'programme',
  programs: 'programmes',
  sulfur: 'sulphur',
  cozy: 'cosy',
  mold: 'mould',
  plow: 'plough',
  fertilizer: 'fertiliser',
  fertilized: 'fertilised',
  pediatric: 'paediatric',
  fetus: 'foetus',
  hemorrhage: 'haemorrhage',
};

// the list does not name every -ize word, so the -ize -> -ise rule converts the rest
const { isBritishOnly, isUsSpelling, toBritish } = britishSpelling(US_TO_UK, { izeToIse: true });

/** kebab-case slug: ASCII, lower case, apostrophes dropped, other non-alphanumerics become hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’‘`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const STOPWORDS = new Set(
  'a an and are as at be been by can could for from has have in into is it its of on or than that the their them they this to was were which while with who whose will would not but also more most one two after before other only when so all about up out its'.split(
    ' ',
  ),
);

function contentWords(text: string): Set<string> {
  return new Set(
    wordsOf(text.toLowerCase())
      .map((w) => w.replace(/s$/, ''))
      .filter((w) => w.length > 2 && !STOPWORDS.has(w)),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

interface FciRow {
  fci: number;
  url: string;
  pdf: string;
}

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

async function loadFciTable(): Promise<FciRow[] | null> {
  if (!existsSync(FCI_TABLE)) return null;
  const text = await readFile(FCI_TABLE, 'utf8');
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const header = parseCsvLine(lines[0]!);
  const col = (name: string): number => header.indexOf(name);
  return lines.slice(1).map((line) => {
    const cells = parseCsvLine(line);
    return {
      fci: Number(cells[col('id')]),
      url: cells[col('url')] ?? '',
      pdf: cells[col('pdf')] ?? '',
    };
  });
}

/** Validates the authored facts; returns the list of problems (empty when valid). */
export async function validateFacts(input: unknown): Promise<string[]> {
  const errors: string[] = [];
  if (!Array.isArray(input)) return ['data/authored/facts.json must be a JSON array'];
  const fci = await loadFciTable();
  const fciByUrl = new Map<string, FciRow>();
  for (const row of fci ?? []) {
    if (row.pdf) fciByUrl.set(row.pdf, row);
    if (row.url) fciByUrl.set(row.url, row);
  }
  const breeds = await loadBreedRefs(BREEDS_FILE);

  const slugs = new Map<string, number>();
  const ids = new Map<string, number>();
  const facts = new Map<string, number>();
  const perSpecies: Record<string, number> = { dog: 0, cat: 0 };
  const perBreed = new Map<string, number>();
  const allowedKeys = new Set([
    'title',
    'fact',
    'species_id',
    'breed_id',
    'category',
    'source_url',
    'source_name',
    'i18n',
  ]);

  input.forEach((raw: unknown, index: number) => {
    const where = `fact #${index}`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push(`${where}: must be an object`);
      return;
    }
    const f = raw as Record<string, unknown>;
    const label = `${where} (${typeof f.title === 'string' ? f.title : '?'})`;
    for (const key of Object.keys(f)) if (!allowedKeys.has(key)) errors.push(`${label}: unknown field "${key}"`);

    // title and text
    if (!isNonEmptyString(f.title)) errors.push(`${label}: title is required`);
    else {
      if (f.title.length > MAX_TITLE) errors.push(`${label}: title longer than ${MAX_TITLE} characters`);
      if (/[.!]$/.test(f.title)) errors.push(`${label}: title must not end with a full stop`);
    }
    if (!isNonEmptyString(f.fact)) errors.push(`${label}: fact is required`);
    else {
      if (f.fact.length < MIN_FACT || f.fact.length > MAX_FACT)
        errors.push(`${label}: fact must be ${MIN_FACT}-${MAX_FACT} characters (is ${f.fact.length})`);
      const n = countSentences(f.fact, { abbreviations: true });
      if (n < 1 || n > 3) errors.push(`${label}: fact must have 1-3 sentences (has ${n})`);
      if (!/[.!?]$/.test(f.fact)) errors.push(`${label}: fact must end with a full stop`);
    }
    for (const key of ['title', 'fact'] as const) {
      const v = f[key];
      if (typeof v === 'string' && TEXT_PROBLEM.test(v)) errors.push(`${label}: ${key} has stray whitespace or markup`);
      if (typeof v === 'string') {
        for (const w of wordsOf(v)) {
          if (isBritishOnly(w))
            errors.push(`${label}: ${key} uses British spelling "${w}"; base English is US spelling (put it in en-gb)`);
        }
      }
    }

    // species, breed, category
    if (!SPECIES.includes(f.species_id as SpeciesId)) errors.push(`${label}: species_id must be "dog" or "cat"`);
    else perSpecies[f.species_id as string]! += 1;
    if (f.breed_id !== null) {
      if (typeof f.breed_id !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(f.breed_id))
        errors.push(`${label}: breed_id must be null or a lowercase hyphenated slug`);
      else {
        perBreed.set(f.breed_id, (perBreed.get(f.breed_id) ?? 0) + 1);
        if (breeds) {
          const b = breeds.get(f.breed_id);
          if (!b) errors.push(`${label}: breed_id "${f.breed_id}" does not exist in data/breeds.json`);
          else if ((b.species === 'dog' || b.species === 'cat') && b.species !== f.species_id)
            errors.push(
              `${label}: breed_id "${f.breed_id}" is a ${b.species} breed but species_id is ${String(f.species_id)}`,
            );
        }
      }
    }
    if (!FACT_CATEGORIES.includes(f.category as FactCategory))
      errors.push(`${label}: category must be one of ${FACT_CATEGORIES.join(', ')}`);

    // source
    if (!isNonEmptyString(f.source_url)) errors.push(`${label}: source_url is required`);
    else {
      let url: URL | null = null;
      try {
        url = new URL(f.source_url);
      } catch {
        errors.push(`${label}: source_url is not a URL`);
      }
      if (url) {
        if (url.protocol !== 'https:') errors.push(`${label}: source_url must use https`);
        if (!(url.host in SOURCE_HOSTS)) errors.push(`${label}: source host ${url.host} is not an accepted publisher`);
        if (url.hash || /\s/.test(f.source_url))
          errors.push(`${label}: source_url must not contain a fragment or spaces`);
        if (url.host === 'en.wikipedia.org' && !/^\/wiki\/[^/]+$/.test(url.pathname))
          errors.push(`${label}: Wikipedia source must be an article URL /wiki/Title`);
        if (url.host === 'en.wikipedia.org' && f.source_name !== 'Wikipedia')
          errors.push(`${label}: source_name of a Wikipedia source must be "Wikipedia"`);
        if (url.host === 'doi.org' && !/^\/10\.\d{4,9}\/\S+$/.test(url.pathname))
          errors.push(`${label}: DOI source must look like https://doi.org/10.NNNN/...`);
        if (url.host === 'www.fci.be') {
          if (fci) {
            const row = fciByUrl.get(f.source_url);
            if (!row) errors.push(`${label}: FCI source ${f.source_url} is not in the FCI nomenclature table`);
            else if (typeof f.breed_id !== 'string')
              errors.push(`${label}: an FCI breed standard source needs a breed_id`);
            else {
              // the standard must be the one of the fact's breed (checked through the breed's FCI number)
              const b = breeds?.get(f.breed_id);
              if (b?.fci !== undefined && b.fci !== row.fci)
                errors.push(
                  `${label}: FCI source is the standard of FCI breed ${row.fci}, but ${f.breed_id} is FCI ${b.fci}`,
                );
            }
          }
          if (f.species_id !== 'dog') errors.push(`${label}: FCI sources are for dog facts only`);
        }
      }
    }
    if (!isNonEmptyString(f.source_name)) errors.push(`${label}: source_name is required`);

    // translations
    const i18n = f.i18n;
    if (!i18n || typeof i18n !== 'object' || Array.isArray(i18n)) errors.push(`${label}: i18n object is required`);
    else {
      const tr = i18n as Record<string, unknown>;
      for (const lang of Object.keys(tr))
        if (!(LANG_ORDER as readonly string[]).includes(lang)) errors.push(`${label}: unknown language "${lang}"`);
      for (const lang of LANG_ORDER) {
        const t = tr[lang];
        if (t === undefined) {
          if ((REQUIRED_LANGS as readonly string[]).includes(lang))
            errors.push(`${label}: missing ${lang} translation`);
          continue;
        }
        if (!t || typeof t !== 'object') {
          errors.push(`${label}: i18n.${lang} must be an object`);
          continue;
        }
        const tt = t as Record<string, unknown>;
        if (Object.keys(tt).some((k) => k !== 'title' && k !== 'fact'))
          errors.push(`${label}: i18n.${lang} may only hold title and fact`);
        if (!isNonEmptyString(tt.title) || !isNonEmptyString(tt.fact)) {
          errors.push(`${label}: i18n.${lang} needs a title and a fact`);
          continue;
        }
        if (TEXT_PROBLEM.test(tt.title) || TEXT_PROBLEM.test(tt.fact))
          errors.push(`${label}: i18n.${lang} has stray whitespace or markup`);
        if (tt.fact.length > MAX_FACT * 1.6) errors.push(`${label}: i18n.${lang}.fact is too long`);
        const n = countSentences(tt.fact, { abbreviations: true });
        if (n < 1 || n > 3) errors.push(`${label}: i18n.${lang}.fact must have 1-3 sentences (has ${n})`);
        if (lang !== 'en-gb' && tt.fact === f.fact) errors.push(`${label}: i18n.${lang}.fact is not translated`);
      }
      // en-gb exactly where British spelling differs
      if (typeof f.title === 'string' && typeof f.fact === 'string') {
        const needsGb = toBritish(f.title) !== f.title || toBritish(f.fact) !== f.fact;
        const gb = tr['en-gb'] as Record<string, unknown> | undefined;
        if (needsGb && !gb) errors.push(`${label}: US spelling in English text but no en-gb variant`);
        if (!needsGb && gb) errors.push(`${label}: en-gb variant given but no British spelling differs`);
        if (gb && typeof gb.title === 'string' && typeof gb.fact === 'string') {
          if (gb.title === f.title && gb.fact === f.fact)
            errors.push(`${label}: en-gb is identical to the English text`);
          for (const w of [...wordsOf(gb.title), ...wordsOf(gb.fact)])
            if (isUsSpelling(w)) errors.push(`${label}: en-gb still uses US spelling "${w}"`);
        }
      }
    }

    // uniqueness
    if (typeof f.title === 'string') {
      const slug = slugify(f.title);
      if (!slug) errors.push(`${label}: title gives an empty slug`);
      if (slugs.has(slug)) errors.push(`${label}: duplicate slug "${slug}" (also fact #${slugs.get(slug)})`);
      slugs.set(slug, index);
      const id = idFromSlug(slug);
      if (ids.has(id)) errors.push(`${label}: id collision "${id}" with fact #${ids.get(id)}`);
      ids.set(id, index);
    }
    if (typeof f.fact === 'string') {
      const key = f.fact
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
      if (facts.has(key)) errors.push(`${label}: duplicate fact text (also fact #${facts.get(key)})`);
      facts.set(key, index);
    }
  });

  // near-duplicates (word-set similarity of title + fact)
  const bags = input.map((raw: unknown) => {
    const f = (raw ?? {}) as Record<string, unknown>;
    return contentWords(`${String(f.title ?? '')} ${String(f.fact ?? '')}`);
  });
  const sources = input.map((raw: unknown) => String(((raw ?? {}) as Record<string, unknown>).source_url ?? ''));
  for (let i = 0; i < bags.length; i++) {
    for (let j = i + 1; j < bags.length; j++) {
      const s = jaccard(bags[i]!, bags[j]!);
      const sameSource = sources[i] !== '' && sources[i] === sources[j];
      if (s >= (sameSource ? SAME_SOURCE_JACCARD : NEAR_DUPLICATE_JACCARD))
        errors.push(
          `fact #${i} and fact #${j} are near-duplicates (word similarity ${s.toFixed(2)}${sameSource ? ', same source' : ''})`,
        );
    }
  }

  // coverage
  if (input.length < MIN_TOTAL) errors.push(`need at least ${MIN_TOTAL} facts, have ${input.length}`);
  for (const sp of SPECIES)
    if ((perSpecies[sp] ?? 0) < MIN_PER_SPECIES)
      errors.push(`need at least ${MIN_PER_SPECIES} ${sp} facts, have ${perSpecies[sp] ?? 0}`);
  const breedTied = [...perBreed.values()].reduce((a, b) => a + b, 0);
  if (breedTied < MIN_BREED_TIED)
    errors.push(`need at least ${MIN_BREED_TIED} breed-specific facts, have ${breedTied}`);
  if (perBreed.size < MIN_DISTINCT_BREEDS)
    errors.push(`breed facts must cover at least ${MIN_DISTINCT_BREEDS} breeds, cover ${perBreed.size}`);
  for (const [breed, n] of perBreed)
    if (n > MAX_FACTS_PER_BREED) errors.push(`breed "${breed}" has ${n} facts (max ${MAX_FACTS_PER_BREED})`);

  return errors;
}

/** Turns validated authored facts into the published records, sorted by id, with a fixed key order. */
export function toPublished(authored: AuthoredFact[]): Fact[] {
  return authored
    .map((f): Fact => {
      const slug = slugify(f.title);
      const i18n: Partial<Record<Lang, FactText>> = {};
      for (const lang of LANG_ORDER) {
        const t = f.i18n[lang];
        if (t) i18n[lang] = { title: t.title, fact: t.fact };
      }
      return {
        id: idFromSlug(slug),
        slug,
        title: f.title,
        fact: f.fact,
        species_id: f.species_id,
        breed_id: f.breed_id,
        category: f.category,
        source_url: f.source_url,
        source_name: f.source_name,
        i18n,
      };
    })
    .sort(byId);
}

export function serialise(facts: Fact[]): string {
  return `${JSON.stringify(facts, null, 2)}\n`;
}

export class FactsValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`data/authored/facts.json has ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
    this.name = 'FactsValidationError';
  }
}

/** Validates data/authored/facts.json and writes data/facts.json. Throws FactsValidationError on any violation. */
export async function buildFacts(): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(AUTHORED_FILE, 'utf8'));
  } catch (err) {
    throw new FactsValidationError([
      `cannot read ${path.relative(REPO_ROOT, AUTHORED_FILE)}: ${(err as Error).message}`,
    ]);
  }
  const problems = await validateFacts(parsed);
  if (problems.length > 0) throw new FactsValidationError(problems);
  const published = toPublished(parsed as AuthoredFact[]);
  // The reader's schema has the last word: a record it would refuse is never written.
  z.array(factRecord).parse(published);
  await mkdir(path.dirname(OUTPUT_FILE), { recursive: true });
  await writeFile(OUTPUT_FILE, serialise(published), 'utf8');
  const breeds = existsSync(BREEDS_FILE)
    ? 'breed ids checked against data/breeds.json'
    : 'data/breeds.json absent, breed ids not cross-checked';
  const dogs = published.filter((f) => f.species_id === 'dog').length;
  const breedTied = published.filter((f) => f.breed_id !== null).length;
  console.log(
    `facts: wrote ${published.length} facts (${dogs} dog, ${published.length - dogs} cat, ${breedTied} breed-specific) to ${path.relative(REPO_ROOT, OUTPUT_FILE)}; ${breeds}`,
  );
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  buildFacts().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
