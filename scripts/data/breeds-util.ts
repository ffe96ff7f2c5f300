/**
 * Small, dependency-free helpers for the breed/colour/category data build
 * (`scripts/data/breeds.ts`): file parsing, slugs, name casing, unit
 * conversion and deterministic JSON output.
 */
import { readFile } from 'node:fs/promises';

// ---------------------------------------------------------------- parsing

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += ch;
      }
      continue;
    }
    if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else {
      field += ch;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** CSV with a header line, as objects keyed by header name. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, (r[i] ?? '').trim()])));
}

/** Tab-separated text without quoting; returns [header, ...rows]. */
export function parseTsv(text: string): string[][] {
  return text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t'));
}

export async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

// ---------------------------------------------------------------- ids and names

const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  Ø: 'o',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ı: 'i',
};

/** Removes diacritics and maps the few letters that do not decompose. */
export function asciiFold(s: string): string {
  return s
    .replace(/[ßøØæÆœŒłŁđĐı]/g, (c) => SPECIAL_LETTERS[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

/**
 * The id rule: English display name → ASCII fold → lower case → "&" becomes
 * "and" → apostrophes dropped → every other run of non-alphanumerics becomes
 * one hyphen → hyphens trimmed.
 */
export function slugify(name: string): string {
  return asciiFold(name)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Normalised key used to compare names across sources (case, accents, punctuation, "saint"/"st"). */
export function nameKey(name: string): string {
  return slugify(name.replace(/\bSt\.?\s/gi, 'Saint ')).replace(/-/g, '');
}

const EN_SMALL = new Set([
  'and',
  'of',
  'the',
  'de',
  'des',
  'du',
  'del',
  'della',
  'dell',
  'la',
  'le',
  'les',
  'von',
  'vom',
  'van',
  'der',
  'da',
  'do',
  'dos',
  'e',
  'et',
  'y',
  'called',
]);
const EN_LOWER_AFTER_HYPHEN = new Set(['haired', 'coated', 'faced', 'sized', 'tailed', 'legged', 'eared', 'type']);

function capitalise(word: string): string {
  if (word === '') return word;
  const first = word.charAt(0);
  return first.toLocaleUpperCase('en') + word.slice(1);
}

/** Title case for English breed names written in upper case in the FCI table. */
export function titleCaseEnglish(upper: string): string {
  const words = upper
    .replace(/\s*&\s*/g, ' and ')
    .replace(/(\p{L})- (\p{L})/gu, '$1-$2')
    .replace(/\s+/g, ' ')
    .trim()
    .toLocaleLowerCase('en')
    .split(' ');
  return words
    .map((w, i) => {
      if (i > 0 && EN_SMALL.has(w)) return w;
      const [pre, core, post] = splitAffixes(w);
      // dell'etna → dell'Etna, d'auvergne → d'Auvergne
      const apos = core.match(/^(dell|d|l)(['’])(.+)$/);
      if (apos)
        return `${pre}${i === 0 ? capitalise(apos[1] ?? '') : apos[1]}${apos[2]}${capitalise(apos[3] ?? '')}${post}`;
      const cased = core
        .split('-')
        .map((part, j) => (j > 0 && EN_LOWER_AFTER_HYPHEN.has(part) ? part : capitalise(part)))
        .join('-');
      return `${pre}${cased}${post}`;
    })
    .join(' ');
}

const DE_SMALL = new Set([
  'und',
  'von',
  'vom',
  'der',
  'die',
  'das',
  'de',
  'du',
  'des',
  'del',
  'la',
  'le',
  'aus',
  'mit',
  'zum',
  'zur',
  'e',
  'et',
  'y',
  'of',
  'the',
  'and',
  'van',
  'dos',
  'do',
  'da',
]);
/** German spellings that the upper-case FCI table writes without umlauts. */
const DE_FIXES: [RegExp, string][] = [
  [/schaferhund/g, 'schäferhund'],
  [/hutehund/g, 'hütehund'],
  [/pyrenaen/g, 'pyrenäen'],
  [/schaeferhund/g, 'schäferhund'],
  [/französicher/g, 'französischer'],
];
const ROMANCE_SMALL = new Set([
  'de',
  'del',
  'dela',
  'des',
  'du',
  'la',
  'le',
  'les',
  'los',
  'las',
  'el',
  'y',
  'e',
  'et',
  'à',
  'a',
  'au',
  'aux',
  'of',
  'the',
  'and',
  'con',
  'en',
  'sur',
  'da',
  'do',
  'dos',
  'van',
  'von',
  'tipo',
  'type',
  'para',
  'pour',
]);
/** Common nouns and adjectives that stay lower case in French and Spanish breed names, even after "de". */
const ROMANCE_COMMON = new Set([
  // es
  'agua',
  'aguas',
  'pelo',
  'caza',
  'montaña',
  'montana',
  'muestra',
  'pastor',
  'presa',
  'perro',
  'perros',
  'liebre',
  'liebres',
  'jabali',
  'ganado',
  'rastro',
  'trineo',
  'oso',
  'osos',
  'conejo',
  'conejos',
  'compania',
  'guarda',
  'granja',
  'talla',
  'tamano',
  'raza',
  'lobo',
  'lobos',
  'color',
  'pluma',
  'corto',
  'largo',
  'duro',
  'liso',
  'pequeno',
  'pequena',
  'gran',
  'grande',
  'mediano',
  'cuerpo',
  'madriguera',
  'patas',
  'cresta',
  'tres',
  'colores',
  'orejas',
  'pastoreo',
  'boyero',
  'boyeros',
  'sangre',
  'fuego',
  'alces',
  'alce',
  'nutria',
  'mapache',
  'cara',
  'llanuras',
  'llanura',
  'juguete',
  'cazador',
  'cobrador',
  'rizado',
  'raso',
  'aspero',
  'negro',
  'blanco',
  'naranja',
  'rojo',
  // fr
  'eau',
  'berger',
  'bergers',
  'montagne',
  'chasse',
  'garenne',
  'loutre',
  'arret',
  'ours',
  'poil',
  'taille',
  'compagnie',
  'ferme',
  'bouvier',
  'lievre',
  'meute',
  'renard',
  'traineau',
  'petite',
  'grande',
  'grand',
  'petit',
  'garde',
  'elan',
  'sang',
  'rouge',
  'noir',
  'blanc',
  'feu',
  'bouviers',
  'loup',
  'sanglier',
  'troupeau',
  'troupeaux',
  'cour',
  'crete',
  'pelage',
  'tricolore',
  'fauve',
  'arete',
  'queue',
  'oreilles',
  'lion',
  'chien',
  'chiens',
  'plaine',
  'macareux',
  'baie',
  'agrement',
  'face',
  'rase',
  'boucle',
  'raton',
  'laveur',
  'dorsale',
  'courant',
  'courants',
  'recherche',
  'oysel',
  'rapporteur',
  'perdrix',
  'long',
  'court',
  'ras',
  'raide',
  'soyeux',
  'frise',
  'lisse',
  'geant',
  'vallee',
  'orange',
]);
/** Loanwords and adjectives that stay lower case inside French/Spanish names even when the English name has them. */
const ROMANCE_GENERIC = new Set([
  'terrier',
  'terriers',
  'spaniel',
  'setter',
  'pointer',
  'hound',
  'retriever',
  'mastiff',
  'bulldog',
  'basset',
  'griffon',
  'bichon',
  'spitz',
  'laika',
  'schnauzer',
  'pinscher',
  'collie',
  'corgi',
  'husky',
  'sheepdog',
  'foxhound',
  'coonhound',
  'dog',
  'toy',
  'shepherd',
  'levrier',
  'braque',
  'epagneul',
  'sabueso',
  'galgo',
  'podenco',
  'braco',
  'mastin',
  'matin',
  'teckel',
  'segugio',
  'bracke',
  'stovare',
  'dogue',
  'dogo',
  'molosse',
  'cane',
  'cao',
  'water',
  'continental',
  'miniature',
  'miniatura',
  'nain',
  'enano',
  'grifon',
  'harrier',
  'beagle',
  'mini',
  'standard',
  'afghan',
]);
/** Words that keep the following word capitalised (compound place names: "Nueva Escocia", "Saint-Hubert"). */
const ROMANCE_CHAIN = new Set([
  'nueva',
  'nouvelle',
  'saint',
  'sainte',
  'san',
  'santa',
  'mont',
  'monte',
  'serra',
  'sierra',
  'terre',
  'glen',
  'bosnia',
  'st',
]);
const ROMANCE_ALWAYS_CAP = new Set(['saint', 'sainte', 'san', 'santa', 'st']);
/** Accents that the upper-case French and Spanish FCI tables drop. */
const ACCENT_FIXES: Record<'es' | 'fr', Record<string, string>> = {
  fr: {
    epagneul: 'épagneul',
    epagneuls: 'épagneuls',
    levrier: 'lévrier',
    levriers: 'lévriers',
    samoyede: 'samoyède',
    norvegien: 'norvégien',
    norvegienne: 'norvégienne',
    pyrenees: 'pyrénées',
    pyreneen: 'pyrénéen',
    francais: 'français',
    francaise: 'française',
    suedois: 'suédois',
    arret: 'arrêt',
    siberie: 'sibérie',
    siberien: 'sibérien',
    coree: 'corée',
    coreen: 'coréen',
    ariege: 'ariège',
    ariegeois: 'ariégeois',
    vendeen: 'vendéen',
    bresilien: 'brésilien',
    tcheque: 'tchèque',
    tchecoslovaque: 'tchécoslovaque',
    herzegovine: 'herzégovine',
    bohemien: 'bohémien',
    boheme: 'bohême',
    montenegro: 'monténégro',
    venerie: 'vénerie',
    americain: 'américain',
    americaine: 'américaine',
    tibetain: 'tibétain',
    ecossais: 'écossais',
    ecosse: 'écosse',
    elan: 'élan',
    carelie: 'carélie',
    perou: 'pérou',
    crete: 'crête',
    thailandais: 'thaïlandais',
    thailande: 'thaïlande',
    europeen: 'européen',
    boucle: 'bouclé',
    reverend: 'révérend',
    meridionale: 'méridionale',
    agrement: 'agrément',
    a: 'à',
    laika: 'laïka',
    mediterraneen: 'méditerranéen',
    etats: 'états',
    helvetique: 'helvétique',
    eleveur: 'éleveur',
    hellenique: 'hellénique',
    neerlandais: 'néerlandais',
    frise: 'frisé',
    geant: 'géant',
    vallee: 'vallée',
    rhodesie: 'rhodésie',
    baviere: 'bavière',
  },
  es: { montana: 'montaña', bernes: 'bernés', mallorquĺn: 'mallorquín', picardia: 'picardía', grifon: 'grifón' },
};

function capFirstLetter(w: string): string {
  return w.replace(/^(\p{L})/u, (c) => c.toLocaleUpperCase());
}

function splitAffixes(token: string): [string, string, string] {
  const m = token.match(/^([("'«]*)(.*?)([)"',;:»]*)$/u);
  return [m?.[1] ?? '', m?.[2] ?? token, m?.[3] ?? ''];
}

function caseGerman(clean: string): string {
  let lower = clean.toLocaleLowerCase('de');
  for (const [re, to] of DE_FIXES) lower = lower.replace(re, to);
  return lower
    .split(' ')
    .map((tok, i) => {
      const [pre, core, post] = splitAffixes(tok);
      if (i > 0 && pre === '' && DE_SMALL.has(core)) return tok;
      const cased = core
        .split('-')
        .map((p) => {
          const m = p.match(/^(dell|d|l)(['’])(.+)$/);
          return m ? `${m[1]}${m[2]}${capFirstLetter(m[3] ?? '')}` : capFirstLetter(p);
        })
        .join('-');
      return `${pre}${cased}${post}`;
    })
    .join(' ');
}

function caseRomance(clean: string, lang: 'es' | 'fr', englishName: string): string {
  const englishWords = asciiFold(englishName)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);
  const inEnglish = (folded: string): boolean => englishWords.includes(folded);
  const fixes = ACCENT_FIXES[lang];
  const out: string[] = [];
  let afterDe = false;
  let chain = false;
  clean
    .toLocaleLowerCase(lang)
    .split(' ')
    .forEach((tok, i) => {
      const [pre, core, post] = splitAffixes(tok);
      const parts = core.split('-');
      const casedParts: string[] = [];
      let tokenCapitalised = false;
      let tokenChains = false;
      parts.forEach((p, j) => {
        const m = p.match(/^(d|l|qu)(['’])(.+)$/);
        let word = m ? (m[3] ?? '') : p;
        if (fixes[word] !== undefined) word = fixes[word] ?? word;
        const folded = asciiFold(word);
        let cap: boolean;
        if (i === 0 && j === 0 && !m) cap = true;
        else if (ROMANCE_ALWAYS_CAP.has(folded)) cap = true;
        else if (ROMANCE_SMALL.has(word) || ROMANCE_SMALL.has(folded)) cap = false;
        else if (ROMANCE_COMMON.has(folded) || ROMANCE_GENERIC.has(folded)) cap = false;
        else if (inEnglish(folded)) cap = true;
        else if ((afterDe || m !== null || chain) && folded.length > 2) cap = true;
        else if (j > 0 && /^\p{Lu}/u.test(casedParts[j - 1] ?? '')) cap = true;
        else cap = false;
        const casedWord = cap ? capFirstLetter(word) : word;
        if (cap) tokenCapitalised = true;
        if (cap && ROMANCE_CHAIN.has(folded)) tokenChains = true;
        casedParts.push(m ? `${i === 0 && j === 0 ? capFirstLetter(m[1] ?? '') : m[1]}${m[2]}${casedWord}` : casedWord);
      });
      out.push(`${pre}${casedParts.join('-')}${post}`);
      const folded = asciiFold(core);
      if (['de', 'du', 'des', 'del', 'tipo', 'type'].includes(folded)) afterDe = true;
      else if (['la', 'los', 'las', 'le', 'les', 'el'].includes(folded) && afterDe) afterDe = true;
      else afterDe = false;
      chain = tokenCapitalised && tokenChains && post === '';
    });
  return out.join(' ');
}

/**
 * Casing for the upper-case German, Spanish and French FCI names.
 * German: every word capitalised except short function words.
 * Spanish/French: sentence case; a word keeps a capital when it also appears in
 * the English display name (names such as "Yorkshire", "Russell"), or when it
 * follows "de"/"du"/"del"/"d'" and is not a common noun (place names such as
 * "de Gascogne", "del Pirineo"). Dropped French accents are restored from a
 * small word list. Names that still come out wrong are overridden in
 * data/authored/dog-fci.json.
 */
export function caseTranslatedName(upper: string, lang: 'de' | 'es' | 'fr', englishName: string): string {
  const and = { de: 'und', es: 'y', fr: 'et' }[lang];
  const clean = upper
    .replace(/\s+/g, ' ')
    .replace(/\s*&\s*/g, ` ${and} `)
    .replace(/(\p{L})- (\p{L})/gu, '$1-$2')
    .trim();
  if (clean === '') return '';
  return lang === 'de' ? caseGerman(clean) : caseRomance(clean, lang, englishName);
}

/** Keeps alternative names readable: no inverted VeNom forms, no comma lists, no bare abbreviations. */
const GENERIC_ALT_NAMES = new Set(
  [
    'shepherd',
    'sheepdog',
    'hound',
    'terrier',
    'spaniel',
    'mastiff',
    'laika',
    'griffon',
    'water dog',
    'mountain dog',
    'cattle dog',
    'heeler',
    'collie',
    'corgi',
    'setter',
    'retriever',
    'spitz',
    'pinscher',
    'schnauzer',
    'bracke',
  ].map(nameKey),
);
export function usableAltName(s: string): boolean {
  if (s.length < 3) return false;
  if (/unspecified|^\(|\bunknown\b|https?:|\//i.test(s)) return false;
  if (GENERIC_ALT_NAMES.has(nameKey(s))) return false;
  if (s.includes(',') || s.includes(' - ') || s.includes(';')) return false;
  if ((s.match(/\(/g) ?? []).length > 1) return false;
  if (/^[A-Z]{2,5}$/.test(s)) return false;
  if (/\((dog|cat)\)$/i.test(s)) return false;
  return true;
}

// ---------------------------------------------------------------- numbers

export interface Range {
  min: number;
  max: number;
}
/** A height whose standard states only a minimum has no `max` (never an invented one). */
export interface OpenRange {
  min: number;
  max?: number;
}
export interface Measure {
  imperial: Range;
  metric: Range;
}
export interface OpenMeasure {
  imperial: OpenRange;
  metric: OpenRange;
}

function roundTo(x: number, step: number): number {
  return Math.round(x / step) * step;
}
function clean(x: number): number {
  return Number(x.toFixed(2));
}

/** Orders and validates a numeric pair; null when missing, zero or not finite. */
export function pair(min: number | null | undefined, max: number | null | undefined): Range | null {
  const a = typeof min === 'number' && Number.isFinite(min) && min > 0 ? min : null;
  const b = typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : null;
  if (a === null && b === null) return null;
  const lo = a ?? b ?? 0;
  const hi = b ?? a ?? 0;
  return lo <= hi ? { min: lo, max: hi } : { min: hi, max: lo };
}

/**
 * Height in cm → { imperial (in, nearest half inch), metric (cm, whole) }. A minimum-only height is rounded down
 * to the half unit instead (54.5 cm stays 54.5, 21.46 in becomes 21), so the published minimum is never above the
 * standard's.
 */
export function heightFromCm(r: OpenRange | null): OpenMeasure | null {
  if (!r) return null;
  if (r.max === undefined)
    return {
      imperial: { min: clean(Math.floor(r.min / 2.54 / 0.5) * 0.5) },
      metric: { min: Math.floor(r.min * 2) / 2 },
    };
  return {
    imperial: { min: clean(roundTo(r.min / 2.54, 0.5)), max: clean(roundTo(r.max / 2.54, 0.5)) },
    metric: { min: Math.round(r.min), max: Math.round(r.max) },
  };
}

/** Weight in kg → { imperial (lb: half pounds under 20 lb, else whole), metric (kg: 0.1 under 10 kg, else whole) }. */
export function weightFromKg(r: Range | null): Measure | null {
  if (!r) return null;
  const lb = (kg: number): number => {
    const v = kg / 0.45359237;
    return clean(v < 20 ? roundTo(v, 0.5) : Math.round(v));
  };
  const kg = (v: number): number => clean(v < 10 ? roundTo(v, 0.1) : Math.round(v));
  return { imperial: { min: lb(r.min), max: lb(r.max) }, metric: { min: kg(r.min), max: kg(r.max) } };
}

export function lifeSpan(r: Range | null): Range | null {
  if (!r) return null;
  return { min: Math.round(r.min), max: Math.round(r.max) };
}

// ---------------------------------------------------------------- output

/** Stable JSON text: two-space indent, trailing newline; object key order is the order of construction. */
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Removes duplicates (by a key function) keeping the first occurrence. */
export function uniqueBy<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const it of items) {
    const k = key(it);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(it);
  }
  return out;
}

/** Plain string comparison independent of the process locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares display names: ASCII-folded, case-insensitive, then raw as tie-break. */
export function compareNames(a: string, b: string): number {
  const fa = asciiFold(a).toLowerCase();
  const fb = asciiFold(b).toLowerCase();
  return compareStrings(fa, fb) || compareStrings(a, b);
}
