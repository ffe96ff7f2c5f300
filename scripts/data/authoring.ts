/**
 * Helpers shared by the builders of the hand-authored data sets (facts, health
 * tips, legislation): value guards, URL and text checks, slug-derived ids,
 * sentence counting, US -> British spelling, the published sort order and the
 * breed ids those sets are checked against.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}

/** Doubled, leading or trailing whitespace, markup characters or a left-over TODO in an authored text. */
export const TEXT_PROBLEM = /\s{2,}|^\s|\s$|[<>{}]|\bTODO\b/;

/**
 * Problem with a source URL ("is empty", "must use https", …), or null when it is fine.
 * `scheme` is what the data set accepts: legislation cites council and press pages that only serve plain http.
 */
export function checkUrl(url: unknown, scheme: 'https' | 'http(s)'): string | null {
  if (!isNonEmptyString(url)) return 'is empty';
  if (/\s/.test(url)) return 'contains whitespace';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  const accepted = scheme === 'https' ? ['https:'] : ['https:', 'http:'];
  if (!accepted.includes(parsed.protocol)) return `must use ${scheme}`;
  return null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 (0-9A-Za-z) of a non-negative big integer, most significant digit first, unpadded. */
function base62(value: bigint): string {
  if (value === 0n) return '0';
  let out = '';
  let v = value;
  while (v > 0n) {
    out = BASE62[Number(v % 62n)]! + out;
    v /= 62n;
  }
  return out;
}

/** Record id: the first 10 characters of base62(sha256(slug)), the digest read as a big-endian integer. */
export function idFromSlug(slug: string): string {
  const hex = createHash('sha256').update(slug, 'utf8').digest('hex');
  return base62(BigInt(`0x${hex}`)).slice(0, 10);
}

export interface SentenceRules {
  /** "Dr.", "St.", "e.g." and similar abbreviations do not end a sentence (the facts' prose uses them). */
  abbreviations?: boolean;
  /** A full stop after a number is a German ordinal ("16. Woche"), not the end of a sentence. */
  germanOrdinals?: boolean;
}

/** Sentence count: a sentence ends with . ! or ? followed by whitespace or the end of the text. */
export function countSentences(text: string, rules: SentenceRules = {}): number {
  let t = text.trim();
  if (rules.abbreviations)
    t = t.replace(/\b(St|Dr|Mr|Mrs|Mt|vs|No|Nr|Sr|Jr|ca|e\.g|i\.e|z\.\s?B|p\. ej|S\. M)\.(?=\s)/g, '$1\u2024');
  if (rules.germanOrdinals) t = t.replace(/(\d)\.(?=\s)/g, '$1\u2024');
  return t.split(/(?<=[.!?…])["»”)]*\s+/u).filter((p) => p.trim().length > 0).length;
}

export function wordsOf(text: string): string[] {
  return text.match(/[A-Za-z]+/g) ?? [];
}

/** Words ending in -ize that are spelled the same in British English. */
const IZE_SAME = new Set([
  'size',
  'sizes',
  'sized',
  'prize',
  'prizes',
  'prized',
  'seize',
  'seized',
  'seizes',
  'seizing',
  'maize',
  'baize',
  'capsize',
  'capsized',
  'resize',
  'resized',
  'downsize',
  'oversized',
  'outsized',
]);

export interface BritishSpelling {
  /** True when a word (any case) has a different British spelling. */
  isUsSpelling(word: string): boolean;
  /** True when a word (any case) is a British spelling that US base text must not use. */
  isBritishOnly(word: string): boolean;
  /** Case-preserving US -> UK conversion of whole words. */
  toBritish(text: string): string;
}

/**
 * US -> British spelling over a data set's own word list. With `izeToIse` the
 * regular -ize -> -ise words need not be listed: any -ize, -ization, … word
 * converts unless it is spelled the same in both (size, prize, seize, …).
 */
export function britishSpelling(
  usToUk: Readonly<Record<string, string>>,
  { izeToIse }: { izeToIse: boolean },
): BritishSpelling {
  const usWords = new Map(Object.entries(usToUk));
  const ukWords = new Set(usWords.values());

  /** British form of one lower-case word, or undefined when both spellings agree. */
  const britishWord = (lower: string): string | undefined => {
    const listed = usWords.get(lower);
    if (listed || !izeToIse) return listed;
    if (IZE_SAME.has(lower) || /size[sd]?$/.test(lower)) return undefined;
    const m = /^([a-z]{3,})iz(e|es|ed|ing|ation|ations|er|ers)$/.exec(lower);
    return m ? `${m[1]}is${m[2]}` : undefined;
  };

  return {
    isUsSpelling: (word) => britishWord(word.toLowerCase()) !== undefined,
    isBritishOnly: (word) => {
      const lower = word.toLowerCase();
      return ukWords.has(lower) || (izeToIse && /[a-z]{3,}isations?$/.test(lower));
    },
    toBritish: (text) =>
      text.replace(/[A-Za-z]+/g, (word) => {
        const uk = britishWord(word.toLowerCase());
        if (!uk) return word;
        if (word === word.toUpperCase() && word.length > 1) return uk.toUpperCase();
        if (word[0] === word[0]!.toUpperCase()) return uk[0]!.toUpperCase() + uk.slice(1);
        return uk;
      }),
  };
}

/** Deterministic ordering: by id, compared by code unit (not locale). */
export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface BreedRef {
  id: string;
  species?: string;
  fci?: number;
}

/** Breeds of data/breeds.json by id when the breed build has produced it (null when absent). */
export async function loadBreedRefs(file: string): Promise<Map<string, BreedRef> | null> {
  if (!existsSync(file)) return null;
  const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : isRecord(raw)
      ? Array.isArray(raw.breeds)
        ? raw.breeds
        : Object.values(raw).flatMap((v) => (Array.isArray(v) ? v : [v]))
      : [];
  const out = new Map<string, BreedRef>();
  for (const item of list) {
    if (!isRecord(item) || typeof item.id !== 'string') continue;
    const species = item.species_id ?? item.species;
    const registryIds = isRecord(item.registry_ids) ? item.registry_ids : undefined;
    out.set(item.id, {
      id: item.id,
      species: typeof species === 'string' ? species : undefined,
      fci: typeof registryIds?.fci === 'number' ? registryIds.fci : undefined,
    });
  }
  return out;
}
