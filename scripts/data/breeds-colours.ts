/**
 * Colour/pattern variants: the EMS code system for cats, a project-defined
 * code list for dogs, and the combinations each breed allows. Every per-breed
 * entry is a variant id that `variants` defines; combinations get readable
 * names composed from their parts in en/de/es/fr (en-gb where the British
 * spelling differs).
 */
import path from 'node:path';
import type { BuildContext, ColourVariant, SpeciesId } from './breeds-model.ts';
import type { CatColourSpec } from './breeds-cats.ts';
import { compareStrings, readJson, slugify } from './breeds-util.ts';

type Lang = 'en' | 'de' | 'es' | 'fr';
type Words = Record<Lang, string>;

interface EmsEntry {
  code: string;
  kind: ColourVariant['kind'];
  name: string;
  en_gb?: string;
  i18n: Record<'de' | 'es' | 'fr', string>;
  words?: Words;
  point_words?: Words;
}
interface DogEntry {
  code: string;
  kind: ColourVariant['kind'];
  name: string;
  en_gb?: string;
  i18n: Record<'de' | 'es' | 'fr', string>;
}
interface DogColourFile {
  variants: DogEntry[];
  phrases: {
    pattern_words: Record<string, Partial<Words> & { 'en-gb'?: string }>;
    modifier_phrases: Record<string, Words>;
    and: Words;
  };
  breeds: Record<string, string[]>;
}

/** British spelling of an American colour name (color → colour, gray → grey). */
export function britishSpelling(s: string): string {
  return s
    .replace(/color/g, 'colour')
    .replace(/Color/g, 'Colour')
    .replace(/\bgray\b/g, 'grey')
    .replace(/\bGray\b/g, 'Grey');
}

function capFirst(s: string): string {
  return s.charAt(0).toLocaleUpperCase() + s.slice(1);
}

function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

function variant(
  species: SpeciesId,
  id: string,
  code: string,
  name: string,
  kind: ColourVariant['kind'],
  i18n: Record<'de' | 'es' | 'fr', string>,
  enGb?: string,
): ColourVariant {
  const v: ColourVariant = {
    id,
    species_id: species,
    code,
    name,
    kind,
    i18n: { de: { name: i18n.de }, es: { name: i18n.es }, fr: { name: i18n.fr } },
  };
  const gb = enGb ?? britishSpelling(name);
  if (gb !== name) v.i18n['en-gb'] = { name: gb };
  return v;
}

// ---------------------------------------------------------------- cats (EMS)

const TABBY = ['21', '22', '23', '24', '25'];
const SHADED = ['11', '12'];
const POINTS = ['31', '32', '33'];
const WHITE = ['01', '02', '03', '04', '09'];
const EYES = ['61', '62', '63', '64'];

export function catVariantId(code: string): string {
  return `cat-${code.trim().replace(/\s+/g, '-')}`;
}

/** Expands a breed's colour spec into EMS codes, skipping combinations the system does not have. */
export function expandCatColours(spec: CatColourSpec): string[] {
  const out: string[] = [];
  for (const b of spec.base) {
    for (const m of spec.mods ?? ['']) {
      for (const p of spec.patterns) {
        const nums = p.split(' ').filter((x) => x !== '');
        if (b === 'w' && (m !== '' || nums.length > 0)) continue;
        if (nums.some((n) => SHADED.includes(n)) && m === '') continue;
        if (
          m === 'y' &&
          (!['n', 'a', 'b', 'c', 'o', 'p'].includes(b) || !nums.some((n) => TABBY.includes(n) || SHADED.includes(n)))
        )
          continue;
        out.push([`${b}${m}`, ...nums].join(' '));
      }
    }
  }
  out.push(...(spec.extra ?? []));
  return [...new Set(out)];
}

function catComboNames(code: string, table: Map<string, EmsEntry>, smoke: Words): Record<Lang, string> | null {
  const [head, ...nums] = code.split(' ');
  if (!head) return null;
  const colour = table.get(head.charAt(0));
  const mod = head.length > 1 ? table.get(head.slice(1)) : undefined;
  if (!colour || (head.length > 1 && !mod) || nums.some((n) => !table.has(n))) return null;
  const hasPoint = nums.some((n) => POINTS.includes(n));
  const names = {} as Record<Lang, string>;
  for (const lang of ['en', 'de', 'es', 'fr'] as const) {
    const w = (code2: string): string => table.get(code2)?.words?.[lang] ?? '';
    const parts: string[] = [
      (hasPoint ? colour.point_words?.[lang] : undefined) ?? colour.words?.[lang] ?? colour.name,
    ];
    const hasPattern = nums.some((n) => TABBY.includes(n) || SHADED.includes(n));
    if (mod) parts.push(mod.code === 's' && !hasPattern ? smoke[lang] : (mod.words?.[lang] ?? ''));
    for (const group of [TABBY, SHADED, POINTS, WHITE, EYES])
      for (const n of nums) if (group.includes(n)) parts.push(w(n));
    names[lang] = capFirst(parts.filter((p) => p !== '').join(' '));
  }
  return names;
}

// ---------------------------------------------------------------- dogs

function dogComboNames(
  tokens: string[],
  table: Map<string, DogEntry>,
  phrases: DogColourFile['phrases'],
): Record<Lang, string> {
  const names = {} as Record<Lang, string>;
  for (const lang of ['en', 'de', 'es', 'fr'] as const) {
    const base = (t: string): string => {
      const e = table.get(t);
      if (!e) return t;
      return lang === 'en' ? e.name : e.i18n[lang];
    };
    const colours = tokens.filter((t) => table.get(t)?.kind === 'colour').map(base);
    const patterns = tokens.filter((t) => table.get(t)?.kind === 'pattern');
    const mods = tokens
      .filter((t) => table.get(t)?.kind === 'modifier')
      .map((t) => phrases.modifier_phrases[t]?.[lang] ?? base(t));
    const lower = (s: string): string => (lang === 'de' ? s : s.toLocaleLowerCase());
    let text: string;
    const firstIsPattern = table.get(tokens[0] ?? '')?.kind === 'pattern';
    if (firstIsPattern && colours.length > 0) {
      text = `${base(patterns[0] ?? '')} ${phrases.and[lang]} ${joinList(colours.map(lower), phrases.and[lang])}`;
      for (const p of patterns.slice(1)) text += ` ${phrases.pattern_words[p]?.[lang] ?? lower(base(p))}`;
    } else {
      const head =
        lang === 'de'
          ? colours.join('-')
          : joinList(
              colours.map((c, i) => (i === 0 ? c : lower(c))),
              phrases.and[lang],
            );
      const pats = patterns.map((p) => phrases.pattern_words[p]?.[lang] ?? lower(base(p)));
      text = [head || (patterns.length > 0 ? base(patterns[0] ?? '') : ''), ...(head ? pats : pats.slice(1))].join(' ');
    }
    if (mods.length > 0) text = `${text} ${mods.join(' ')}`;
    names[lang] = capFirst(text.trim());
  }
  return names;
}

// ---------------------------------------------------------------- build

export interface ColoursOutput {
  variants: ColourVariant[];
  breeds: Record<string, string[]>;
}

export async function buildColours(
  ctx: BuildContext,
  breedIds: Map<string, SpeciesId>,
  catSpecs: Map<string, CatColourSpec>,
): Promise<ColoursOutput & { stats: Record<string, number> }> {
  const ems = await readJson<{ variants: EmsEntry[]; smoke: Words }>(path.join(ctx.authoredDir, 'ems-colours.json'));
  const dogFile = await readJson<DogColourFile>(path.join(ctx.authoredDir, 'dog-colours.json'));
  const variants = new Map<string, ColourVariant>();
  const add = (v: ColourVariant): void => {
    const prev = variants.get(v.id);
    if (prev && (prev.code !== v.code || prev.species_id !== v.species_id))
      ctx.errors.push(`colour variant id clash: ${v.id} (${prev.code} / ${v.code})`);
    variants.set(v.id, v);
  };
  const breeds: Record<string, string[]> = {};

  // cats: the whole EMS table is species-wide; combinations appear as breeds use them
  const emsTable = new Map(ems.variants.map((e) => [e.code, e]));
  for (const e of ems.variants) add(variant('cat', catVariantId(e.code), e.code, e.name, e.kind, e.i18n, e.en_gb));
  for (const [breedId, spec] of catSpecs) {
    const ids: string[] = [];
    for (const code of expandCatColours(spec)) {
      const id = catVariantId(code);
      if (!variants.has(id)) {
        const names = catComboNames(code, emsTable, ems.smoke);
        if (!names) {
          ctx.errors.push(`${breedId}: EMS code "${code}" uses an unknown part`);
          continue;
        }
        add(variant('cat', id, code, names.en, 'combination', { de: names.de, es: names.es, fr: names.fr }));
      }
      ids.push(id);
    }
    if (ids.length === 0) ctx.errors.push(`${breedId}: no colours`);
    breeds[breedId] = ids;
  }

  // dogs: species-wide codes, then per-breed combinations
  const dogTable = new Map(dogFile.variants.map((e) => [e.code, e]));
  const dogId = (name: string): string => `dog-${slugify(name)}`;
  const dogCodeToId = new Map<string, string>();
  for (const e of dogFile.variants) {
    const id = dogId(e.name);
    dogCodeToId.set(e.code, id);
    add(variant('dog', id, e.code, e.name, e.kind, e.i18n, e.en_gb));
  }
  for (const [breedId, list] of Object.entries(dogFile.breeds)) {
    if (breedIds.get(breedId) !== 'dog') {
      ctx.errors.push(`dog-colours.json: "${breedId}" is not a dog breed id`);
      continue;
    }
    const ids: string[] = [];
    for (const code of list) {
      const tokens = code.split('-');
      const unknown = tokens.filter((t) => !dogTable.has(t));
      if (unknown.length > 0) {
        ctx.errors.push(`dog-colours.json: ${breedId}: unknown code(s) ${unknown.join(', ')}`);
        continue;
      }
      if (tokens.length === 1) {
        ids.push(dogCodeToId.get(code) ?? '');
        continue;
      }
      const names = dogComboNames(tokens, dogTable, dogFile.phrases);
      const id = dogId(names.en);
      if (!variants.has(id))
        add(variant('dog', id, code, names.en, 'combination', { de: names.de, es: names.es, fr: names.fr }));
      else if (variants.get(id)?.code !== code)
        ctx.errors.push(`dog colour combinations ${code} and ${variants.get(id)?.code} get the same name`);
      ids.push(id);
    }
    breeds[breedId] = [...new Set(ids)];
  }

  const kindOrder: Record<ColourVariant['kind'], number> = { colour: 0, modifier: 1, pattern: 2, combination: 3 };
  const sortedVariants = [...variants.values()].sort(
    (a, b) =>
      compareStrings(a.species_id, b.species_id) ||
      kindOrder[a.kind] - kindOrder[b.kind] ||
      compareStrings(a.code, b.code) ||
      compareStrings(a.id, b.id),
  );
  const sortedBreeds: Record<string, string[]> = {};
  for (const k of Object.keys(breeds).sort(compareStrings)) sortedBreeds[k] = breeds[k] ?? [];
  for (const [k, list] of Object.entries(sortedBreeds))
    for (const id of list) if (!variants.has(id)) ctx.errors.push(`colours: ${k} references undefined variant ${id}`);

  const stats: Record<string, number> = {
    dog_variants: sortedVariants.filter((v) => v.species_id === 'dog').length,
    cat_variants: sortedVariants.filter((v) => v.species_id === 'cat').length,
    dog_breeds_with_colours: Object.keys(sortedBreeds).filter((k) => breedIds.get(k) === 'dog').length,
    cat_breeds_with_colours: Object.keys(sortedBreeds).filter((k) => breedIds.get(k) === 'cat').length,
  };
  return { variants: sortedVariants, breeds: sortedBreeds, stats };
}
