/**
 * Breed-legislation data set builder.
 *
 * Reads the hand-curated laws in `data/authored/legislation.json`, checks every
 * rule documented in `docs/data.md` (section "Breed legislation") and writes
 * `data/legislation.json` deterministically: records sorted by id, fixed key
 * order, two-space JSON with a final newline and no timestamps, so the same
 * input always gives byte-identical output.
 *
 * Run directly: `npx tsx scripts/data/legislation.ts` (exit code 1 and a list of
 * problems on any violation).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type BreedRef,
  byId,
  checkUrl,
  countSentences,
  isNonEmptyString,
  isRecord,
  loadBreedRefs,
  TEXT_PROBLEM,
} from './authoring.ts';
import * as z from 'zod/mini';
import {
  APPROACHES,
  JURISDICTION_LEVELS,
  LAW_STATUSES,
  LEGISLATION_TYPES,
  lawRecord,
  type LawRecord,
  SOURCE_KINDS,
  VERIFICATIONS,
} from '../../shared/domain/reference/records.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
export const LEGISLATION_AUTHORED_FILE = path.join(REPO_ROOT, 'data', 'authored', 'legislation.json');
/** Names in the laws that are types, crosses or look-alike descriptions rather than breeds, with the reason. */
export const LEGISLATION_TYPES_FILE = path.join(REPO_ROOT, 'data', 'authored', 'legislation-types.json');
export const LEGISLATION_OUTPUT_FILE = path.join(REPO_ROOT, 'data', 'legislation.json');
const BREEDS_FILE = path.join(REPO_ROOT, 'data', 'breeds.json');

export type JurisdictionLevel = (typeof JURISDICTION_LEVELS)[number];
export type LegislationType = (typeof LEGISLATION_TYPES)[number];
export type Approach = (typeof APPROACHES)[number];
export type LegislationStatus = (typeof LAW_STATUSES)[number];
export type Verification = (typeof VERIFICATIONS)[number];

/** A published law is the reader's record (shared/domain/reference/records.ts). */
export type Legislation = LawRecord;
/** As authored: every law carries its title and summary in each of LEGISLATION_LANGS; `source_url` is derived. */
type AuthoredLaw = Omit<Legislation, 'i18n' | 'source_url'> & {
  i18n: Record<(typeof LEGISLATION_LANGS)[number], { title: string; summary: string }>;
};

export const LEGISLATION_LANGS = ['de', 'es', 'fr'] as const;

/** Field order of a published record. */
const FIELDS: readonly (keyof Legislation)[] = [
  'id',
  'country_code',
  'country_name',
  'jurisdiction',
  'amends',
  'title',
  'legislation_type',
  'approach',
  'species_id',
  'breeds',
  'summary',
  'status',
  'effective_date',
  'repealed_date',
  'preempts_local_bsl',
  'source_url',
  'sources',
  'verified_at',
  'verification',
  'verification_note',
  'i18n',
];

/** The fields an authored row has: the published ones but `source_url`, which is the first of `sources`. */
const AUTHORED_FIELDS = FIELDS.filter((f) => f !== 'source_url');
type SourceKind = (typeof SOURCE_KINDS)[number];
/** The order of `sources`: the law's own text first, then official pages, then the rest. */
const SOURCE_RANK: Record<SourceKind, number> = { legal_text: 0, official_page: 1, overview: 2, secondary: 2 };

/**
 * `sources` are well-formed and ordered; the verification level is backed by a cited page of its kind (a row checked
 * against the law's text cites the text); a row citing only overview pages says so in its note. Returns problems.
 */
export function sourceProblems(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const sources = raw.sources;
  if (!Array.isArray(sources) || sources.length === 0) return ['sources must be a non-empty array'];
  const kinds: SourceKind[] = [];
  const urls = new Set<string>();
  sources.forEach((s, i) => {
    if (!isRecord(s) || Object.keys(s).sort().join(',') !== 'kind,url') {
      problems.push(`sources[${i}] must have exactly url and kind`);
      return;
    }
    const problem = checkUrl(s.url, 'http(s)');
    if (problem) problems.push(`sources[${i}].url ${problem}`);
    if (urls.has(String(s.url))) problems.push(`sources[${i}].url cited twice`);
    urls.add(String(s.url));
    if (!SOURCE_KINDS.includes(s.kind as SourceKind))
      problems.push(`sources[${i}].kind must be one of ${SOURCE_KINDS.join(', ')}`);
    else kinds.push(s.kind as SourceKind);
  });
  if (kinds.some((k, i) => i > 0 && SOURCE_RANK[k] < SOURCE_RANK[kinds[i - 1] as SourceKind]))
    problems.push("sources must list the law's text first, then official pages, then the rest");
  if (raw.verification === 'primary_text' && !kinds.includes('legal_text'))
    problems.push("a row checked against the law's text must cite it (a legal_text source)");
  if (raw.verification === 'official_page' && !kinds.some((k) => k === 'legal_text' || k === 'official_page'))
    problems.push('a row checked against an official page must cite one (or the legal text)');
  if (kinds.every((k) => k === 'overview') && !/overview/i.test(String(raw.verification_note ?? '')))
    problems.push('a row citing only overview pages must say so in its verification_note');
  return problems;
}

/** Minimum coverage the data set must keep. */
export const LEGISLATION_MINIMUMS = {
  countriesWithNationalLaw: 20,
  jurisdictionLaws: 20,
  jurisdictionLevels: 4,
} as const;

/** ISO 3166-1 alpha-2 codes (officially assigned). */
const ISO_3166_1_ALPHA_2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
    'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
    'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
    'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
    'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

const ID_RE = /^[a-z]{2}(?:-[a-z0-9]+)+$/;
const BREED_ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SUBDIVISION_RE = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
const DATE_RE = /^\d{4}(?:-\d{2}-\d{2})?$/;

/** A "YYYY" or a real calendar "YYYY-MM-DD". */
export function isValidDate(v: string): boolean {
  if (!DATE_RE.test(v)) return false;
  if (v.length === 4) return true;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

const NUMBER_WORDS = [
  ...'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen'.split(' '),
  ...'seventeen eighteen nineteen'.split(' '),
];
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50 };
const COUNT_WORD = `\\d+|(?:${Object.keys(TENS).join('|')})(?:-(?:${NUMBER_WORDS.slice(0, 9).join('|')}))?|${NUMBER_WORDS.join('|')}`;
/** "Twelve breeds", "the four listed breeds", "the five category 1 breeds", "eleven more"; not "from 92 breeds". */
const STATED_COUNT = new RegExp(
  `(?<!(?:from|about|to) )\\b(${COUNT_WORD})\\s+(?:(?:listed|further|category\\s+\\w+)\\s+)*(?:breeds|fighting types)\\b|\\b(${COUNT_WORD})\\s+more\\b`,
  'gi',
);

function countValue(word: string): number {
  const w = word.toLowerCase();
  if (/^\d+$/.test(w)) return Number(w);
  const [tens, unit] = w.split('-');
  if (tens && TENS[tens] !== undefined) return TENS[tens] + (unit ? NUMBER_WORDS.indexOf(unit) + 1 : 0);
  return NUMBER_WORDS.indexOf(w) + 1;
}

/**
 * A summary that counts the breeds ("Twelve breeds ... are listed") must agree with the breeds list; several counts
 * add up ("four breeds ... and eleven more"). Hybrids or a type the summary names besides the counted breeds ("six
 * listed breeds ... and wolf-dog hybrids") may be listed on top. Returns the problem, or null.
 */
export function summaryCountProblem(summary: string, breeds: readonly { name: string }[]): string | null {
  const counts = [...summary.matchAll(STATED_COUNT)].map((m) => countValue(m[1] ?? m[2] ?? ''));
  if (counts.length === 0) return null;
  const stated = counts.reduce((a, b) => a + b, 0);
  const namesExtra = /hybrid|\btype\b/i.test(summary.replace(/breeds or types/gi, ''));
  const extras = namesExtra ? breeds.filter((b) => /hybrid|\(type\)/i.test(b.name)).length : 0;
  if (breeds.length === stated || breeds.length === stated + extras) return null;
  return `the summary counts ${stated} breeds but the list has ${breeds.length}`;
}

/**
 * Validates the authored laws. Returns the list of problems (empty when valid).
 * `breeds` is the breed-id map from data/breeds.json, or null to skip that check.
 */
export function validateLegislation(
  input: unknown,
  breeds: Map<string, BreedRef> | null,
  documentedTypes: Set<string> | null = null,
): string[] {
  const errors: string[] = [];
  if (!Array.isArray(input)) return ['data/authored/legislation.json must be a JSON array'];
  const ids = new Set<string>();
  const countryNames = new Map<string, string>();

  input.forEach((raw, index) => {
    const label = `law #${index + 1}${isRecord(raw) && typeof raw.id === 'string' ? ` (${raw.id})` : ''}`;
    if (!isRecord(raw)) {
      errors.push(`${label}: must be an object`);
      return;
    }
    for (const key of Object.keys(raw)) {
      if (!(AUTHORED_FIELDS as readonly string[]).includes(key)) errors.push(`${label}: unknown field "${key}"`);
    }
    for (const key of AUTHORED_FIELDS) if (!(key in raw)) errors.push(`${label}: field "${key}" is missing`);

    // id and country
    const cc = raw.country_code;
    if (typeof cc !== 'string' || !ISO_3166_1_ALPHA_2.has(cc)) {
      errors.push(`${label}: country_code must be an ISO 3166-1 alpha-2 code`);
    }
    if (typeof raw.id !== 'string' || !ID_RE.test(raw.id)) {
      errors.push(`${label}: id must be a lower-case slug starting with the country code`);
    } else {
      if (ids.has(raw.id)) errors.push(`${label}: duplicate id`);
      ids.add(raw.id);
      if (typeof cc === 'string' && !raw.id.startsWith(`${cc.toLowerCase()}-`)) {
        errors.push(`${label}: id must start with "${String(cc).toLowerCase()}-"`);
      }
    }
    if (!isNonEmptyString(raw.country_name)) errors.push(`${label}: country_name is required`);
    else if (typeof cc === 'string') {
      const known = countryNames.get(cc);
      if (known && known !== raw.country_name)
        errors.push(`${label}: country_name "${raw.country_name}" differs from "${known}" used for ${cc}`);
      countryNames.set(cc, raw.country_name);
    }

    // jurisdiction
    const jur = raw.jurisdiction;
    if (jur !== null) {
      if (!isRecord(jur) || Object.keys(jur).sort().join(',') !== 'code,level,name') {
        errors.push(`${label}: jurisdiction must be null or {level, name, code}`);
      } else {
        if (!JURISDICTION_LEVELS.includes(jur.level as JurisdictionLevel)) {
          errors.push(`${label}: jurisdiction.level must be one of ${JURISDICTION_LEVELS.join(', ')}`);
        }
        if (!isNonEmptyString(jur.name)) errors.push(`${label}: jurisdiction.name is required`);
        if (jur.code !== null) {
          if (typeof jur.code !== 'string' || !SUBDIVISION_RE.test(jur.code)) {
            errors.push(`${label}: jurisdiction.code must be an ISO 3166-2 style code or null`);
          } else if (typeof cc === 'string' && !jur.code.startsWith(`${cc}-`)) {
            errors.push(`${label}: jurisdiction.code ${jur.code} does not belong to ${cc}`);
          }
        }
      }
    }

    // texts
    for (const key of ['title', 'summary'] as const) {
      const v = raw[key];
      if (!isNonEmptyString(v)) errors.push(`${label}: ${key} is required`);
      else if (TEXT_PROBLEM.test(v)) errors.push(`${label}: ${key} has stray whitespace or markup`);
    }
    if (isNonEmptyString(raw.summary)) {
      const n = countSentences(raw.summary);
      if (n < 1 || n > 2) errors.push(`${label}: summary has ${n} sentences (1-2 allowed)`);
      if (raw.summary.length > 420) errors.push(`${label}: summary longer than 420 characters`);
    }

    // translations
    if (!isRecord(raw.i18n)) errors.push(`${label}: i18n with de, es and fr is required`);
    else {
      for (const lang of LEGISLATION_LANGS) {
        const t = raw.i18n[lang];
        if (!isRecord(t) || !isNonEmptyString(t.title) || !isNonEmptyString(t.summary)) {
          errors.push(`${label}: i18n.${lang} needs a title and a summary`);
          continue;
        }
        for (const key of ['title', 'summary'] as const)
          if (TEXT_PROBLEM.test(String(t[key])))
            errors.push(`${label}: i18n.${lang}.${key} has stray whitespace or markup`);
        if (String(t.summary).length > 520) errors.push(`${label}: i18n.${lang}.summary longer than 520 characters`);
        if (t.summary === raw.summary) errors.push(`${label}: i18n.${lang}.summary is the English text`);
      }
      for (const lang of Object.keys(raw.i18n))
        if (!(LEGISLATION_LANGS as readonly string[]).includes(lang)) errors.push(`${label}: i18n language ${lang}`);
    }

    // enums
    if (!LEGISLATION_TYPES.includes(raw.legislation_type as LegislationType)) {
      errors.push(`${label}: legislation_type must be one of ${LEGISLATION_TYPES.join(', ')}`);
    }
    if (!APPROACHES.includes(raw.approach as Approach))
      errors.push(`${label}: approach must be one of ${APPROACHES.join(', ')}`);
    if (raw.species_id !== 'dog') errors.push(`${label}: species_id must be "dog"`);
    if (!LAW_STATUSES.includes(raw.status as LegislationStatus))
      errors.push(`${label}: status must be one of ${LAW_STATUSES.join(', ')}`);
    if (!VERIFICATIONS.includes(raw.verification as Verification))
      errors.push(`${label}: verification must be one of ${VERIFICATIONS.join(', ')}`);
    if (typeof raw.preempts_local_bsl !== 'boolean') errors.push(`${label}: preempts_local_bsl must be a boolean`);

    // breeds
    if (!Array.isArray(raw.breeds)) {
      errors.push(`${label}: breeds must be an array`);
    } else {
      const names = new Set<string>();
      raw.breeds.forEach((b, i) => {
        if (!isRecord(b) || Object.keys(b).sort().join(',') !== 'breed_id,includes_mixes,name') {
          errors.push(`${label}: breeds[${i}] must have exactly name, breed_id and includes_mixes`);
          return;
        }
        if (!isNonEmptyString(b.name)) errors.push(`${label}: breeds[${i}].name is required`);
        else {
          if (names.has(b.name)) errors.push(`${label}: breed "${b.name}" listed twice`);
          names.add(b.name);
        }
        if (typeof b.includes_mixes !== 'boolean')
          errors.push(`${label}: breeds[${i}].includes_mixes must be a boolean`);
        if (b.breed_id === null && documentedTypes && isNonEmptyString(b.name) && !documentedTypes.has(b.name)) {
          errors.push(`${label}: "${b.name}" has no breed_id and is not documented in legislation-types.json`);
        }
        if (b.breed_id !== null) {
          if (typeof b.breed_id !== 'string' || !BREED_ID_RE.test(b.breed_id)) {
            errors.push(`${label}: breeds[${i}].breed_id must be a breed slug or null`);
          } else {
            // a law may name one breed twice under different names ("Pit Bull Terrier", "American Pit Bull Terrier")
            if (breeds) {
              const ref = breeds.get(b.breed_id);
              if (!ref)
                errors.push(`${label}: breeds[${i}].breed_id "${b.breed_id}" does not exist in data/breeds.json`);
              else if (ref.species && ref.species !== 'dog')
                errors.push(`${label}: breed_id "${b.breed_id}" is not a dog breed`);
            }
          }
        }
      });
      // a row that names breeds must list them: a ban of "twelve breeds" without the twelve tells a reader nothing
      if (raw.breeds.length === 0 && raw.legislation_type !== 'behavior_based')
        errors.push(`${label}: breeds may be empty only for behavior_based laws; list the breeds or drop the row`);
      if (typeof raw.summary === 'string') {
        const problem = summaryCountProblem(raw.summary, raw.breeds as { name: string }[]);
        if (problem) errors.push(`${label}: ${problem}`);
      }
      if (raw.legislation_type === 'behavior_based' && raw.breeds.length > 0) {
        errors.push(`${label}: a behavior_based law must not list breeds`);
      }
    }

    // dates and status
    for (const key of ['effective_date', 'repealed_date', 'verified_at'] as const) {
      const v = raw[key];
      if (v !== null && (typeof v !== 'string' || !isValidDate(v)))
        errors.push(`${label}: ${key} must be YYYY, YYYY-MM-DD or null`);
    }
    if (raw.verified_at !== null && typeof raw.verified_at === 'string' && raw.verified_at.length !== 10) {
      errors.push(`${label}: verified_at must be a full date`);
    }
    if ((raw.status === 'in_force' || raw.status === 'suspended') && raw.repealed_date !== null) {
      errors.push(`${label}: repealed_date must be null when status is ${String(raw.status)}`);
    }
    if (raw.status === 'repealed' && raw.repealed_date === null && !isNonEmptyString(raw.verification_note)) {
      errors.push(`${label}: a repealed law without repealed_date needs a verification_note`);
    }
    if (typeof raw.effective_date === 'string' && typeof raw.repealed_date === 'string') {
      const n = Math.min(raw.effective_date.length, raw.repealed_date.length);
      if (raw.repealed_date.slice(0, n) < raw.effective_date.slice(0, n))
        errors.push(`${label}: repealed_date is before effective_date`);
    }
    if (raw.preempts_local_bsl === true) {
      if (!isRecord(jur) || !['state', 'province', 'territory', 'region'].includes(String(jur.level))) {
        errors.push(`${label}: preempts_local_bsl needs a state, province, territory or region jurisdiction`);
      }
    }

    // source and verification
    for (const problem of sourceProblems(raw)) errors.push(`${label}: ${problem}`);
    if (raw.verification !== 'secondary' && raw.verified_at === null)
      errors.push(`${label}: rows checked against the law or an official page need verified_at`);
    if (raw.verification === 'secondary') {
      if (raw.verified_at !== null) errors.push(`${label}: secondary rows must have verified_at null`);
      if (!isNonEmptyString(raw.verification_note)) errors.push(`${label}: secondary rows need a verification_note`);
    }
    if (raw.verification_note !== null && !isNonEmptyString(raw.verification_note)) {
      errors.push(`${label}: verification_note must be a non-empty string or null`);
    }
  });

  // amendments point at another law of the same country
  const countryOf = new Map(
    input.filter(isRecord).flatMap((l) => (typeof l.id === 'string' ? [[l.id, l.country_code] as const] : [])),
  );
  for (const raw of input.filter(isRecord)) {
    if (raw.amends === null || raw.amends === undefined) continue;
    if (typeof raw.amends !== 'string' || !countryOf.has(raw.amends))
      errors.push(`law ${String(raw.id)}: amends must be null or the id of another law`);
    else if (raw.amends === raw.id || countryOf.get(raw.amends) !== raw.country_code)
      errors.push(`law ${String(raw.id)}: amends ${raw.amends}, which is itself or another country's law`);
  }

  // coverage
  const laws = input.filter(isRecord);
  if (documentedTypes) {
    const used = new Set(
      laws.flatMap((l) => (Array.isArray(l.breeds) ? l.breeds : [])).flatMap((b) => (isRecord(b) ? [b.name] : [])),
    );
    for (const name of documentedTypes)
      if (!used.has(name)) errors.push(`legislation-types.json: "${name}" is named by no law`);
  }
  const national = new Set(laws.filter((l) => l.jurisdiction === null).map((l) => l.country_code));
  const m = LEGISLATION_MINIMUMS;
  if (national.size < m.countriesWithNationalLaw) {
    errors.push(
      `coverage: ${national.size} countries with national laws, at least ${m.countriesWithNationalLaw} required`,
    );
  }
  const local = laws.filter((l) => l.jurisdiction !== null);
  if (local.length < m.jurisdictionLaws)
    errors.push(`coverage: ${local.length} jurisdiction-level laws, at least ${m.jurisdictionLaws} required`);
  const levels = new Set(local.map((l) => (isRecord(l.jurisdiction) ? l.jurisdiction.level : null)));
  if (levels.size < m.jurisdictionLevels)
    errors.push(`coverage: ${levels.size} jurisdiction levels used, at least ${m.jurisdictionLevels} required`);
  return errors;
}

/** Published record in fixed key order. */
function toPublished(l: AuthoredLaw): Legislation {
  return {
    id: l.id,
    country_code: l.country_code,
    country_name: l.country_name,
    jurisdiction:
      l.jurisdiction === null
        ? null
        : { level: l.jurisdiction.level, name: l.jurisdiction.name, code: l.jurisdiction.code },
    amends: l.amends,
    title: l.title,
    legislation_type: l.legislation_type,
    approach: l.approach,
    species_id: l.species_id,
    breeds: l.breeds.map((b) => ({ name: b.name, breed_id: b.breed_id, includes_mixes: b.includes_mixes })),
    summary: l.summary,
    status: l.status,
    effective_date: l.effective_date,
    repealed_date: l.repealed_date,
    preempts_local_bsl: l.preempts_local_bsl,
    source_url: l.sources[0]?.url ?? '',
    sources: l.sources.map((s) => ({ url: s.url, kind: s.kind })),
    verified_at: l.verified_at,
    verification: l.verification,
    verification_note: l.verification_note,
    i18n: {
      de: { title: l.i18n.de.title, summary: l.i18n.de.summary },
      es: { title: l.i18n.es.title, summary: l.i18n.es.summary },
      fr: { title: l.i18n.fr.title, summary: l.i18n.fr.summary },
    },
  };
}

export interface BuildLegislationResult {
  count: number;
  outputFile: string;
  breedsChecked: boolean;
}

export interface BuildLegislationOptions {
  authoredFile?: string;
  outputFile?: string;
  breedsFile?: string;
  typesFile?: string;
}

/** Validates the authored laws and writes data/legislation.json. Throws with every problem listed. */
export async function buildLegislation(options: BuildLegislationOptions = {}): Promise<BuildLegislationResult> {
  const authoredFile = options.authoredFile ?? LEGISLATION_AUTHORED_FILE;
  const outputFile = options.outputFile ?? LEGISLATION_OUTPUT_FILE;
  const input: unknown = JSON.parse(await readFile(authoredFile, 'utf8'));
  const breeds = await loadBreedRefs(options.breedsFile ?? BREEDS_FILE);
  const types = JSON.parse(await readFile(options.typesFile ?? LEGISLATION_TYPES_FILE, 'utf8')) as {
    names: Record<string, string>;
  };
  const errors = validateLegislation(input, breeds, new Set(Object.keys(types.names)));
  if (errors.length > 0) {
    throw new Error(`legislation: ${errors.length} problem(s)\n  - ${errors.join('\n  - ')}`);
  }
  const published = (input as AuthoredLaw[]).map(toPublished).sort(byId);
  // The reader's schema has the last word: a record it would refuse is never written.
  z.array(lawRecord).parse(published);
  await mkdir(path.dirname(outputFile), { recursive: true });
  await writeFile(outputFile, `${JSON.stringify(published, null, 2)}\n`, 'utf8');
  return { count: published.length, outputFile, breedsChecked: breeds !== null };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  buildLegislation()
    .then((r) => {
      const note = r.breedsChecked
        ? 'breed ids checked against data/breeds.json'
        : 'data/breeds.json absent, breed ids not cross-checked';
      console.log(`legislation: wrote ${r.count} laws to ${path.relative(REPO_ROOT, r.outputFile)} (${note})`);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
