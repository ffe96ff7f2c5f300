/**
 * Readers for the raw third-party files in the shared data folder (FCI
 * nomenclature tables, AKC numbers, Vertebrate Breed Ontology TSVs, corpora
 * name lists). They return plain typed records; no project decisions here.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { csvObjects, parseCsv, parseTsv } from './breeds-util.ts';

// ---------------------------------------------------------------- FCI

export const FCI_LANGS = ['de', 'es', 'fr', 'pl', 'uk'] as const;
export type FciLang = (typeof FCI_LANGS)[number];

export interface FciBreed {
  id: number;
  name: string; // upper case, as published
  group: string;
  section: string;
  provisional: string; // M/D/YYYY or ''
  country: string;
  url: string;
  pdf: string;
  translations: Partial<Record<FciLang, { name: string; url: string; pdf: string }>>;
}

export async function readFci(dataDir: string): Promise<FciBreed[]> {
  const dir = path.join(dataDir, 'fci');
  const en = csvObjects(await readFile(path.join(dir, 'fci-breeds.csv'), 'utf8'));
  const byId = new Map<number, FciBreed>();
  for (const r of en) {
    const id = Number(r.id);
    if (!Number.isInteger(id)) throw new Error(`fci-breeds.csv: bad id "${r.id}"`);
    byId.set(id, {
      id,
      name: r.name ?? '',
      group: r.group ?? '',
      section: r.section ?? '',
      provisional: r.provisional ?? '',
      country: r.country ?? '',
      url: r.url ?? '',
      pdf: r.pdf ?? '',
      translations: {},
    });
  }
  for (const lang of FCI_LANGS) {
    const rows = csvObjects(await readFile(path.join(dir, `fci-breeds-${lang}.csv`), 'utf8'));
    for (const r of rows) {
      const b = byId.get(Number(r.id));
      if (!b || !r.name) continue;
      b.translations[lang] = { name: r.name, url: r.url ?? '', pdf: r.pdf ?? '' };
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

// ---------------------------------------------------------------- AKC (numbers and group only)

export interface AkcBreed {
  name: string;
  group: string;
  heightCm: [number, number];
  weightKg: [number, number];
  lifeYears: [number, number];
}

/** Reads only the name, group and numeric columns; the prose columns are never read into memory structures. */
export async function readAkc(dataDir: string): Promise<AkcBreed[]> {
  const [header, ...rows] = parseCsv(await readFile(path.join(dataDir, 'akc', 'akc-data-latest.csv'), 'utf8'));
  if (!header) throw new Error('akc-data-latest.csv: empty');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`akc-data-latest.csv: no column ${name}`);
    return i;
  };
  const num = (r: string[], name: string): number => {
    const v = Number((r[col(name)] ?? '').trim());
    return Number.isFinite(v) ? v : 0;
  };
  return rows
    .filter((r) => (r[0] ?? '').trim() !== '')
    .map((r) => ({
      name: (r[0] ?? '').trim(),
      group: (r[col('group')] ?? '').trim(),
      heightCm: [num(r, 'min_height'), num(r, 'max_height')],
      weightKg: [num(r, 'min_weight'), num(r, 'max_weight')],
      lifeYears: [num(r, 'min_expectancy'), num(r, 'max_expectancy')],
    }));
}

// ---------------------------------------------------------------- VBO

export type RecognitionStatus = 'full' | 'provisional' | 'none';
const VBO_STATUS: Record<string, RecognitionStatus> = {
  'VBO:0300002': 'full',
  'VBO:0300003': 'provisional',
  'VBO:0300004': 'none',
};

export interface VboTerm {
  id: string;
  name: string;
  parent: string;
  synonyms: string[];
  fci: number[];
  venom: string[];
  wikipedia: string[];
  /** Registry name → source URL (dog: akc, ckc, fci, kc, ukc; cat: cfa, fife, gccf, tica, wcf). */
  registries: Record<string, string>;
  /** Recognition statuses, each with the URLs that state it. */
  recognition: { status: RecognitionStatus; urls: string[] }[];
  /** Breed codes (cats: EMS/TICA/GCCF codes), each with its source URLs. */
  codes: { code: string; urls: string[] }[];
  /** OMIA's own breed ids for this term (`OMIA:195`): OMIA lists inherited disorders or traits in the breed. */
  omia: string[];
}

function splitPipe(v: string | undefined): string[] {
  return (v ?? '')
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Column lookup by header name; `nth` picks among repeated names (0 = the URL variant for source columns). */
function columnFinder(header: string[]): (name: string, nth?: number) => number {
  return (name, nth = 0) => {
    let seen = 0;
    for (let i = 0; i < header.length; i++) {
      if ((header[i] ?? '').trim() === name) {
        if (seen === nth) return i;
        seen++;
      }
    }
    return -1;
  };
}

/**
 * Reads a VBO component TSV: skips the template line, drops obsolete rows,
 * and folds merged-term rows (empty label, same id) into their term.
 */
export async function readVbo(dataDir: string, species: 'dog' | 'cat'): Promise<Map<string, VboTerm>> {
  const file = path.join(dataDir, 'vbo', species === 'dog' ? 'dogbreeds.tsv' : 'catbreeds.tsv');
  const [header, , ...rows] = parseTsv(await readFile(file, 'utf8'));
  if (!header) throw new Error(`${file}: empty`);
  const col = columnFinder(header);
  const get = (r: string[], i: number): string => (i >= 0 ? (r[i] ?? '').trim() : '');
  const synonymCols: number[] = [col('most_common_name'), col('synonym_dadis_name_not_used_in_label')];
  for (let n = 1; n <= 15; n++) synonymCols.push(col(`synonym_${n}`));
  synonymCols.push(col('synonym_label_from_merged_term'));
  const regCols: [string, number][] =
    species === 'dog'
      ? [
          ['akc', col('source_for_breed_akc')],
          ['ckc', col('source_for_breed_ckc')],
          ['fci', col('source_for_breed_fci')],
          ['kc', col('source_for_breed_kc')],
          ['ukc', col('source_for_breed_ukc')],
        ]
      : [
          ['cfa', col('source_for_breed_CFA')],
          ['fife', col('source_for_breed_FIFe')],
          ['gccf', col('source_for_breed_GCCF')],
          ['tica', col('source_for_breed_TICA')],
          ['wcf', col('source_for_breed_WCF')],
        ];
  const wikiCol = species === 'dog' ? col('source_for_breed_wiki_or_other') : col('source_for_breed_WIKI');
  const fciCol = col('xref1_fci');
  const venomCol = col('xref5_venom');
  const omiaCol = col('omia_xref_internal');
  const omiaIds = (r: string[]): string[] => splitPipe(get(r, omiaCol)).filter((x) => /^OMIA:\d+$/.test(x));
  const obsoleteCol = col('obsolete');
  const terms = new Map<string, VboTerm>();
  const merged: string[][] = [];
  for (const r of rows) {
    const id = get(r, col('vbo_id'));
    if (!id) continue;
    if (get(r, obsoleteCol) === 'true') continue;
    const label = get(r, col('term_label'));
    if (label === '') {
      merged.push(r);
      continue;
    }
    const recognition: VboTerm['recognition'] = [];
    for (let n = 1; n <= 3; n++) {
      const st = VBO_STATUS[get(r, col(`recognition_status_${n}`))];
      if (st) recognition.push({ status: st, urls: splitPipe(get(r, col(`source_for_recognition_status_${n}`))) });
    }
    const codes: VboTerm['codes'] = [];
    for (let n = 1; n <= 4; n++) {
      const ci = col(`Breed_code_${n}`);
      if (ci < 0) continue;
      const code = get(r, ci);
      if (code) codes.push({ code, urls: splitPipe(get(r, col(`all_source_for_breed_code_${n}_separated_by_pipe`))) });
    }
    const registries: Record<string, string> = {};
    for (const [name, i] of regCols) if (get(r, i)) registries[name] = get(r, i);
    terms.set(id, {
      id,
      name: get(r, col('most_common_name')) || label.replace(/\s*\((Dog|Cat)\)$/, ''),
      parent: get(r, col('parent_ID')),
      synonyms: synonymCols.flatMap((i) => splitPipe(get(r, i))),
      fci: splitPipe(get(r, fciCol))
        .map((x) => Number(x.replace(/^FCI:/, '')))
        .filter((n) => Number.isInteger(n)),
      venom: splitPipe(get(r, venomCol)),
      wikipedia: splitPipe(get(r, wikiCol)).filter(
        (u) => u.startsWith('https://en.wikipedia.org/') && !u.includes('List_of_'),
      ),
      registries,
      recognition,
      codes,
      omia: omiaIds(r),
    });
  }
  for (const r of merged) {
    const t = terms.get(get(r, col('vbo_id')));
    if (!t) continue;
    for (const i of synonymCols) t.synonyms.push(...splitPipe(get(r, i)));
    for (const x of splitPipe(get(r, fciCol))) {
      const n = Number(x.replace(/^FCI:/, ''));
      if (Number.isInteger(n) && !t.fci.includes(n)) t.fci.push(n);
    }
    for (const v of splitPipe(get(r, venomCol))) if (!t.venom.includes(v)) t.venom.push(v);
    for (const o of omiaIds(r)) if (!t.omia.includes(o)) t.omia.push(o);
  }
  return terms;
}

/** The OMIA breed ids of a record's VBO terms, each once, in numeric order. */
export function omiaIdsOf(terms: readonly VboTerm[]): string[] {
  const ids = new Set(terms.flatMap((t) => t.omia));
  return [...ids].sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
}

// ---------------------------------------------------------------- corpora

export async function readCorporaDogs(dataDir: string): Promise<string[]> {
  const json = JSON.parse(await readFile(path.join(dataDir, 'corpora', 'dogs.json'), 'utf8')) as { dogs: string[] };
  return json.dogs;
}
export async function readCorporaCats(dataDir: string): Promise<string[]> {
  const json = JSON.parse(await readFile(path.join(dataDir, 'corpora', 'cats.json'), 'utf8')) as { cats: string[] };
  return json.cats;
}
