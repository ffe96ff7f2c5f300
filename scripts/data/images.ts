/**
 * Reference image catalogue builder.
 *
 * Generates the metadata of the seed images served by `GET /images/search`: one record per image with its
 * species, breeds, categories, colours, pet age, creation time and a `render` recipe that
 * `scripts/data/render-images.ts` turns into a JPEG (Noto emoji pet on a tinted background, plus an accessory
 * emoji chosen from the image's category).
 *
 * Inputs: `data/breeds.json`, `data/categories.json`, `data/colours.json` and the Noto icon set
 * (`@iconify-json/noto`, used only to check that every icon named in a recipe exists).
 * Output: `data/images.json`, a JSON array sorted by `created_at`, then `id`, one record per line.
 *
 * Deterministic: every random choice comes from a seeded PRNG (sfc32 seeded from SHA-256), there is no clock
 * and no Math.random, so the same inputs always give byte-identical output. The build validates the result
 * against the contract documented in docs/data.md ("Image catalogue") and writes nothing when a rule is broken.
 *
 * Run directly: `npx tsx scripts/data/images.ts` (exit code 1 on any violation).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const DATA_DIR = path.join(REPO_ROOT, 'data');
export const CATALOGUE_FILE = path.join(DATA_DIR, 'images.json');
/** Each breed's reference image, derived from the catalogue; seeded into the breeds reference set. */
export const BREED_IMAGES_FILE = path.join(DATA_DIR, 'breed-images.json');

/** Changing the seed (or any rule below) regenerates a different catalogue; bump it only on purpose. */
export const CATALOGUE_SEED = 'pet-api/image-catalogue/v1';
/** Object-key prefix of every catalogue image below the media bucket. */
export const CATALOGUE_PREFIX = 'catalogue/';

/** Images per species. Dogs get more because there are about six times as many dog breeds. */
export const IMAGE_COUNTS = { dog: 1000, cat: 600 } as const;
/** Share of images without breeds (`has_breeds=false`), without colours, and without a known age. */
const NO_BREED_SHARE = 0.15;
const NO_COLOUR_SHARE = 0.1;
const NO_AGE_SHARE = 0.2;
/** Share of breed images showing a mix (two breed ids) and of coloured images with a second colour. */
const TWO_BREEDS_SHARE = 0.1;
const TWO_COLOURS_SHARE = 0.12;
/** created_at range, inclusive start, exclusive end (UTC). */
const CREATED_FROM = Date.UTC(2024, 0, 1);
const CREATED_TO = Date.UTC(2026, 10, 1);
/** Pixel size limits of the rendered JPEGs. */
export const MIN_SIDE = 400;
export const MAX_SIDE = 1200;

export type SpeciesId = 'dog' | 'cat';
const SPECIES: readonly SpeciesId[] = ['dog', 'cat'];

/** How the coat is painted: the body colour, a second colour and where it goes, and white markings. */
export interface CoatRecipe {
  /** Body colour, `#rrggbb` (the colour tag's coat colour; for pointed cats the pale body). */
  base: string;
  /** Second colour, `#rrggbb`: stripes, spots, points, tan markings, tortoiseshell patches or a dark mask. */
  accent: string;
  pattern: CoatPattern;
  /** White on the coat: none, markings (chest, feet, blaze), van (white body) or mostly white. */
  white: 'none' | 'markings' | 'van' | 'mostly';
}

export const COAT_PATTERNS = [
  'solid',
  'stripes',
  'brindle',
  'spots',
  'patches',
  'ticked',
  'points',
  'tan-points',
  'saddle',
  'mask',
  'tortie',
] as const;
export type CoatPattern = (typeof COAT_PATTERNS)[number];

export interface RenderRecipe {
  /** The drawn animal: a dog or cat silhouette in the coat's colours (a generic grey one when no colour is tagged). */
  coat: CoatRecipe | null;
  /** Caption on the card: the breed name(s) and the colour name(s), and the word "Illustration". */
  title: string;
  subtitle: string;
  /** Noto icon name drawn top-right (a category prop), or null. */
  accessory: string | null;
  /** Canvas colour, `#rrggbb`. */
  background: string;
  /** Animal size as a share of the shorter side. */
  scale: number;
}

export interface CatalogueImage {
  id: string;
  file: string;
  width: number;
  height: number;
  species_id: SpeciesId;
  breed_ids: string[];
  category_ids: number[];
  colour_ids: string[];
  age_months: number | null;
  created_at: string;
  render: RenderRecipe;
}

interface Breed {
  id: string;
  species_id: SpeciesId;
  name: string;
  breed_groups: string[];
  extinct: boolean;
  life_span: { min: number; max: number } | null;
  registry_ids: { fci: number | null; fci_provisional: boolean | null; akc: boolean | null };
}

interface Category {
  id: number;
  name: string;
  species_ids: SpeciesId[];
}

interface ColourVariant {
  id: string;
  species_id: SpeciesId;
  code: string;
  name: string;
  kind: 'colour' | 'pattern' | 'modifier' | 'combination';
}

interface Colours {
  variants: ColourVariant[];
  breeds: Record<string, string[]>;
}

export interface CatalogueInputs {
  breeds: Breed[];
  categories: Category[];
  colours: Colours;
}

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness

/** sfc32 (Small Fast Counter) PRNG; `next()` returns a float in [0, 1). */
class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    const h = createHash('sha256').update(seed).digest();
    this.a = h.readUInt32BE(0);
    this.b = h.readUInt32BE(4);
    this.c = h.readUInt32BE(8);
    this.d = h.readUInt32BE(12);
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  next(): number {
    return this.nextU32() / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += Math.max(0, weight(item));
    if (total <= 0) throw new Error('weighted pick with no positive weight');
    let r = this.next() * total;
    for (const item of items) {
      r -= Math.max(0, weight(item));
      if (r < 0) return item;
    }
    return items[items.length - 1] as T;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 9 base62 characters from SHA-256 of the key (digest read as one big-endian integer). */
export function imageIdFor(key: string): string {
  let n = BigInt(`0x${createHash('sha256').update(key).digest('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(9, '0').slice(0, 9);
}

// ---------------------------------------------------------------------------------------------------------
// Curated tables (our own choices)

/**
 * Breeds photographed more often. Our own selection, informed by the published AKC (dogs) and CFA (cats)
 * registration rankings; the weights only shape how many catalogue images a breed gets.
 */
const POPULAR: Record<SpeciesId, { weight: number; ids: string[] }[]> = {
  dog: [
    {
      weight: 24,
      ids: [
        'labrador-retriever',
        'french-bulldog',
        'golden-retriever',
        'german-shepherd-dog',
        'poodle',
        'dachshund',
        'bulldog',
        'beagle',
        'rottweiler',
        'german-short-haired-pointing-dog',
      ],
    },
    {
      weight: 8,
      ids: [
        'yorkshire-terrier',
        'italian-cane-corso',
        'pembroke-welsh-corgi',
        'australian-shepherd',
        'siberian-husky',
        'cavalier-king-charles-spaniel',
        'dobermann',
        'great-dane',
        'miniature-schnauzer',
        'shih-tzu',
        'boxer',
        'bernese-mountain-dog',
        'havanese',
        'pomeranian',
        'boston-terrier',
        'english-springer-spaniel',
        'shetland-sheepdog',
        'border-collie',
        'chihuahua',
        'pug',
        'maltese',
        'english-cocker-spaniel',
        'american-cocker-spaniel',
        'jack-russell-terrier',
        'staffordshire-bull-terrier',
        'shiba',
        'samoyed',
        'bichon-frise',
        'weimaraner',
        'vizsla',
        'basset-hound',
        'akita',
        'belgian-malinois',
        'dalmatian',
        'west-highland-white-terrier',
        'whippet',
        'australian-cattle-dog',
        'alaskan-malamute',
        'newfoundland',
        'st-bernard',
      ],
    },
  ],
  cat: [
    {
      weight: 12,
      ids: ['ragdoll', 'maine-coon', 'persian', 'british-shorthair', 'exotic-shorthair', 'siamese'],
    },
    {
      weight: 5,
      ids: [
        'devon-rex',
        'abyssinian',
        'american-shorthair',
        'scottish-fold',
        'sphynx',
        'cornish-rex',
        'russian-blue',
        'bengal',
        'norwegian-forest-cat',
        'birman',
        'oriental-shorthair',
        'burmese',
        'siberian',
        'bombay',
        'tonkinese',
        'himalayan',
        'chartreux',
        'ragamuffin',
        'turkish-van',
        'turkish-angora',
      ],
    },
  ],
};

/** Guide and assistance dog breeds: may be drawn with the guide-dog / service-dog icons. */

interface CategoryRule {
  /** Relative frequency among categorised images. */
  weight: number;
  /** Accessory emoji candidates (null = this category sometimes draws no accessory). */
  accessories: Record<SpeciesId, (string | null)[]>;
}

const both = (...names: (string | null)[]): Record<SpeciesId, (string | null)[]> => ({ dog: names, cat: names });

/** Keyed by category name (data/categories.json); a category not listed here gets weight 3 and no accessory. */
const CATEGORY_RULES: Record<string, CategoryRule> = {
  Hats: { weight: 6, accessories: both('top-hat', 'womans-hat', 'billed-cap', 'top-hat') },
  Space: { weight: 2, accessories: both('rocket', 'ringed-planet', 'flying-saucer') },
  Sunglasses: { weight: 5, accessories: both('sunglasses') },
  Boxes: { weight: 7, accessories: both('package') },
  Ties: { weight: 2, accessories: both('necktie') },
  Costumes: { weight: 3, accessories: both('performing-arts', 'crown', 'jack-o-lantern') },
  Sinks: { weight: 5, accessories: both('potable-water', 'shower') },
  Puppies: { weight: 9, accessories: both('baby-bottle', null) },
  Kittens: { weight: 9, accessories: both('baby-bottle', 'yarn', null) },
  Sleeping: { weight: 8, accessories: both('zzz') },
  Playing: { weight: 8, accessories: { dog: ['tennis', 'soccer-ball', 'flying-disc'], cat: ['yarn', 'tennis'] } },
  Outdoors: { weight: 8, accessories: both('deciduous-tree', 'evergreen-tree', 'sun') },
  Snow: { weight: 4, accessories: both('snowflake', 'snowman') },
  Funny: { weight: 6, accessories: both('face-with-tears-of-joy', 'face-with-tongue', 'clown-face') },
  Portraits: { weight: 7, accessories: both('framed-picture', 'camera-with-flash', null) },
  Beach: { weight: 4, accessories: both('beach-with-umbrella', 'palm-tree') },
  Swimming: { weight: 3, accessories: both('water-wave') },
  'Car rides': { weight: 3, accessories: both('automobile') },
  Toys: { weight: 5, accessories: { dog: ['teddy-bear', 'bone', 'tennis'], cat: ['yarn', 'teddy-bear'] } },
  Mealtime: { weight: 4, accessories: { dog: ['meat-on-bone', 'bone', 'canned-food'], cat: ['fish', 'canned-food'] } },
  Yawning: { weight: 3, accessories: both('yawning-face') },
  Seniors: { weight: 5, accessories: both('glasses', null) },
  'Working dogs': { weight: 4, accessories: both('safety-vest', 'rescue-workers-helmet', null) },
  Windows: { weight: 7, accessories: both('window') },
  Friends: { weight: 4, accessories: both('red-heart', 'two-hearts') },
  Holidays: { weight: 4, accessories: both('wrapped-gift', 'christmas-tree', 'party-popper', 'jack-o-lantern') },
};

/** Approximate coat colours for the background tint: dog codes (data/authored/dog-colours.json). */
const DOG_CODE_RGB: Record<string, string> = {
  AGO: '#8a7a5c',
  APR: '#f2b27a',
  BEI: '#d9c3a0',
  BIS: '#d8b98a',
  BLD: '#e8d08a',
  BLK: '#2b2b2b',
  BLU: '#6d7b8d',
  BRN: '#6b4226',
  CHO: '#5a3a22',
  CRM: '#f1e1b8',
  DGR: '#b89b6a',
  FAW: '#d9a86c',
  GLD: '#d4a23c',
  GRY: '#8e8e8e',
  GRZ: '#7d7466',
  ISA: '#c9b29b',
  LEM: '#f0d77a',
  LIV: '#7a3e2a',
  MAH: '#6e2c1e',
  MUS: '#c9a24a',
  ORG: '#e08a3c',
  PEP: '#5f5f5f',
  RED: '#b5502a',
  SAB: '#9a6b3d',
  SAP: '#8c8c84',
  SDG: '#a8825a',
  SLV: '#bfc3c7',
  SND: '#d6bf8f',
  TAN: '#c68a4e',
  WGR: '#7f7a70',
  WHE: '#e3c58f',
  WHT: '#f4f1ea',
  YEL: '#ecc65a',
  BEL: '#c9c4bc',
  BIC: '#8a8278',
  BRI: '#6a4a2e',
  DAP: '#7d6f66',
  HAR: '#9a9a9a',
  MRL: '#8d96a3',
  PAR: '#b59b80',
  PIE: '#c7b299',
  ROA: '#9b8a80',
  SDL: '#7c5a3a',
  SPT: '#a8a09a',
  TIC: '#9fa6ad',
  TRI: '#7a5a3e',
  MSK: '#3a3a3a',
  WMK: '#eeeeee',
};

/** Approximate coat colours for the background tint: EMS base colour letters. */
const CAT_LETTER_RGB: Record<string, string> = {
  n: '#2a2a2a',
  a: '#7f8c99',
  b: '#5c3b27',
  c: '#b8a7a8',
  d: '#c8642f',
  e: '#efd6a8',
  f: '#4a3328',
  g: '#8b8280',
  h: '#7a5239',
  j: '#c6b1a6',
  o: '#8f5536',
  p: '#d2b49a',
  q: '#a56a45',
  r: '#d8b29a',
  t: '#c98f4a',
  w: '#f5f3ee',
  x: '#999999',
};

/** Backgrounds for images without a colour. */
const NEUTRAL_BACKGROUNDS = [
  '#f4e8d8',
  '#e3eef6',
  '#e8f3e4',
  '#f6e4ea',
  '#efe9f7',
  '#fdf3d6',
  '#e0f2f1',
  '#f2f2f2',
  '#fbe9dd',
  '#e6ecf5',
  '#f0f4e0',
  '#f7efe6',
];

// ---------------------------------------------------------------------------------------------------------
// Colour helpers

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: Rgb): string {
  const h = (v: number): string =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return `#${h(r)}${h(g)}${h(b)}`;
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Representative coat colour of a variant, or null when its code says nothing about colour. */
export function coatColour(variant: ColourVariant): string | null {
  if (variant.species_id === 'dog') {
    const first = variant.code.split('-')[0] ?? '';
    return DOG_CODE_RGB[first] ?? null;
  }
  const [head = '', ...rest] = variant.code.split(' ');
  const letter = head[0] ?? '';
  const base = CAT_LETTER_RGB[letter];
  if (base === undefined) return null;
  let rgb = parseHex(base);
  if (head.includes('s')) rgb = mix(rgb, parseHex('#d9dde2'), 0.5);
  if (head.includes('y')) rgb = mix(rgb, parseHex('#e0b75a'), 0.4);
  if (rest.some((p) => p === '31' || p === '32' || p === '33')) rgb = mix(rgb, parseHex('#f1e6d2'), 0.6);
  return toHex(rgb);
}

const DOG_PATTERN_CODES = new Set([
  'BRI',
  'MRL',
  'DAP',
  'PIE',
  'PAR',
  'TRI',
  'BIC',
  'ROA',
  'TIC',
  'HAR',
  'SDL',
  'SPT',
  'BEL',
]);
const darker = (hex: string, t = 0.45): string => toHex(mix(parseHex(hex), [20, 16, 12], t));

/** How a colour tag is painted: body colour, second colour, pattern and white, derived from its code. */
export function coatRecipe(variant: ColourVariant): CoatRecipe {
  return variant.species_id === 'dog' ? dogCoat(variant.code) : catCoat(variant.code);
}

function dogCoat(code: string): CoatRecipe {
  const parts = code.split('-');
  const colours = parts.filter((p) => !DOG_PATTERN_CODES.has(p) && p !== 'MSK' && p !== 'WMK' && p !== 'WHT');
  const has = (p: string): boolean => parts.includes(p);
  const first = colours[0];
  // a pattern code alone (e.g. "TRI", "MRL") paints with its representative colour
  const base = first !== undefined ? (DOG_CODE_RGB[first] ?? '#8a8278') : (DOG_CODE_RGB[parts[0] ?? ''] ?? '#8a8278');
  const second = colours[1] !== undefined ? DOG_CODE_RGB[colours[1]] : undefined;
  const onlyWhite = parts.every((p) => p === 'WHT');
  let white: CoatRecipe['white'] = onlyWhite ? 'none' : has('WHT') || has('WMK') || has('BIC') ? 'markings' : 'none';
  if (has('PIE') || has('PAR') || has('HAR')) white = 'mostly';
  let pattern: CoatPattern = 'solid';
  let accent = second ?? darker(base);
  if (has('BRI')) pattern = 'brindle';
  else if (has('MRL') || has('DAP')) pattern = 'patches';
  else if (has('HAR')) [pattern, accent] = ['patches', DOG_CODE_RGB.BLK ?? '#2b2b2b'];
  else if (has('SPT') || has('BEL')) pattern = 'spots';
  else if (has('ROA') || has('TIC')) pattern = 'ticked';
  else if (has('SDL')) pattern = 'saddle';
  else if (has('TRI')) [pattern, accent, white] = ['tan-points', DOG_CODE_RGB.TAN ?? '#c68a4e', 'markings'];
  else if (second !== undefined) pattern = colours[1] === 'TAN' || colours[1] === 'RED' ? 'tan-points' : 'patches';
  if (has('MSK') && pattern === 'solid') [pattern, accent] = ['mask', DOG_CODE_RGB.MSK ?? '#3a3a3a'];
  return { base, accent, pattern, white };
}

const CAT_TORTIE_ACCENT: Record<string, string> = { f: '#c8642f', g: '#efd6a8', h: '#c8642f', j: '#efd6a8' };

function catCoat(code: string): CoatRecipe {
  const [head = '', ...rest] = code.split(' ');
  const letter = head[0] ?? 'x';
  const pure = CAT_LETTER_RGB[letter] ?? '#999999';
  const body = coatColour({ id: '', species_id: 'cat', code, name: '', kind: 'colour' }) ?? pure;
  const has = (p: string): boolean => rest.includes(p);
  let pattern: CoatPattern = 'solid';
  let accent = darker(body);
  if (has('31') || has('32') || has('33')) [pattern, accent] = ['points', pure];
  else if (has('22') || has('23') || has('21')) pattern = 'stripes';
  else if (has('24')) pattern = 'spots';
  else if (has('25')) pattern = 'ticked';
  else if (CAT_TORTIE_ACCENT[letter] !== undefined) [pattern, accent] = ['tortie', CAT_TORTIE_ACCENT[letter] as string];
  const white: CoatRecipe['white'] = has('01')
    ? 'van'
    : has('02')
      ? 'mostly'
      : has('03') || has('09')
        ? 'markings'
        : 'none';
  return { base: body, accent, pattern, white };
}

/** The card's caption: breed name(s) (or the species), colour name(s), and that the picture is an illustration. */
function caption(species: SpeciesId, breeds: Breed[], colours: ColourVariant[]): { title: string; subtitle: string } {
  const title =
    breeds.length > 0
      ? breeds.map((b) => b.name).join(' & ')
      : species === 'dog'
        ? 'Dog, breed not tagged'
        : 'Cat, breed not tagged';
  const colourText = colours.map((c) => c.name).join(' & ');
  return { title, subtitle: colourText ? `${colourText} · Illustration` : 'Illustration' };
}

// ---------------------------------------------------------------------------------------------------------
// Generation

interface Slot {
  species: SpeciesId;
  breeds: string[];
}

function breedWeight(breed: Breed): number {
  for (const tier of POPULAR[breed.species_id]) if (tier.ids.includes(breed.id)) return tier.weight;
  const recognised =
    breed.registry_ids.akc === true || (breed.registry_ids.fci !== null && breed.registry_ids.fci_provisional !== true);
  return recognised ? 1.5 : 1;
}

/**
 * Breeds per slot: every living breed once, the remaining breed images shared out in proportion to the
 * popularity weights (largest remainder, so popular breeds get their share without sampling noise), a second
 * breed for some mixes, and slots without breeds. The slot order is shuffled.
 */
function allocateSlots(species: SpeciesId, living: Breed[], rng: Rng): Slot[] {
  const total = IMAGE_COUNTS[species];
  const withBreeds = Math.round(total * (1 - NO_BREED_SHARE));
  if (withBreeds < living.length)
    throw new Error(`${species}: ${withBreeds} breed images cannot cover ${living.length} breeds`);
  const extra = withBreeds - living.length;
  const totalWeight = living.reduce((sum, b) => sum + breedWeight(b), 0);
  const shares = living.map((b, index) => {
    const exact = (extra * breedWeight(b)) / totalWeight;
    return { id: b.id, index, count: 1 + Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let missing = withBreeds - shares.reduce((sum, s) => sum + s.count, 0);
  for (const share of [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (missing <= 0) break;
    share.count++;
    missing--;
  }
  const slots: Slot[] = [];
  for (const share of shares) {
    for (let n = 0; n < share.count; n++) {
      const breeds = [share.id];
      if (living.length > 1 && rng.chance(TWO_BREEDS_SHARE)) {
        let second = share.id;
        while (second === share.id) second = rng.weighted(living, breedWeight).id;
        breeds.push(second);
      }
      slots.push({ species, breeds });
    }
  }
  while (slots.length < total) slots.push({ species, breeds: [] });
  return rng.shuffle(slots);
}

function pickCategories(species: SpeciesId, breeds: Breed[], categories: Category[], rng: Rng): Category[] {
  const roll = rng.next();
  const count = roll < 0.32 ? 0 : roll < 0.84 ? 1 : 2;
  const groups = breeds.flatMap((b) => b.breed_groups);
  const working = groups.some((g) => /Working|Herding|Sheepdogs|Molossoids/.test(g));
  const toy = groups.some((g) => /Toy|Companion/.test(g));
  const water = groups.some((g) => /Retrievers|Water/.test(g));
  const weight = (c: Category): number => {
    let w = CATEGORY_RULES[c.name]?.weight ?? 3;
    if (c.name === 'Working dogs') w *= working ? 3 : toy ? 0.15 : 0.6;
    if (c.name === 'Swimming' && water) w *= 3;
    return w;
  };
  const chosen: Category[] = [];
  const available = categories.filter((c) => c.species_ids.includes(species));
  while (chosen.length < count) {
    const young = chosen.some((c) => c.name === 'Puppies' || c.name === 'Kittens');
    const old = chosen.some((c) => c.name === 'Seniors');
    const candidates = available.filter(
      (c) =>
        !chosen.includes(c) &&
        !(young && c.name === 'Seniors') &&
        !(old && (c.name === 'Puppies' || c.name === 'Kittens')),
    );
    chosen.push(rng.weighted(candidates, weight));
  }
  return chosen;
}

function pickAge(species: SpeciesId, breeds: Breed[], categories: Category[], rng: Rng): number | null {
  const names = new Set(categories.map((c) => c.name));
  const lifeMaxYears = Math.min(...breeds.map((b) => b.life_span?.max ?? 20), species === 'cat' ? 20 : 18);
  const cap = Math.min(180, Math.max(24, lifeMaxYears * 12 + 12));
  if (names.has('Puppies') || names.has('Kittens')) return rng.chance(0.1) ? null : rng.int(1, 12);
  if (names.has('Seniors')) {
    if (rng.chance(0.1)) return null;
    const from = Math.min(species === 'cat' ? 132 : 96, Math.round(lifeMaxYears * 12 * 0.65));
    return rng.int(from, Math.max(from, cap));
  }
  if (rng.chance(NO_AGE_SHARE)) return null;
  const r = rng.next();
  const age = r < 0.2 ? rng.int(1, 12) : r < 0.6 ? rng.int(13, 60) : r < 0.9 ? rng.int(61, 120) : rng.int(121, 180);
  return Math.min(age, cap);
}

function pickColours(
  species: SpeciesId,
  breeds: Breed[],
  colours: Colours,
  speciesPool: ColourVariant[],
  byId: Map<string, ColourVariant>,
  poolWeight: Map<string, number>,
  rng: Rng,
): ColourVariant[] {
  if (rng.chance(NO_COLOUR_SHARE)) return [];
  const usable = (v: ColourVariant | undefined): v is ColourVariant =>
    v !== undefined &&
    v.species_id === species &&
    v.kind !== 'modifier' &&
    !(species === 'cat' && v.kind === 'pattern');
  /** A cat's colour list can hold hundreds of combinations; favour the short (common) codes. */
  const simplicity = (v: ColourVariant): number => (species === 'cat' ? 1 / v.code.split(' ').length ** 2 : 1);
  const fromBreed = (breed: Breed | undefined): ColourVariant | null => {
    if (breed === undefined) return null;
    const allowed = (colours.breeds[breed.id] ?? []).map((id) => byId.get(id)).filter(usable);
    return allowed.length > 0 ? rng.weighted(allowed, simplicity) : null;
  };
  // the species-wide pool only for images without a breed: a colour drawn from it for a breed without a colour list
  // could contradict the breed (a White Shepherd painted black and tan), so such a breed gets no colour tag
  const anyColour = () => rng.weighted(speciesPool, (v) => poolWeight.get(v.id) ?? 1);
  const first = breeds.length > 0 ? fromBreed(breeds[0]) : anyColour();
  if (first === null) return [];
  const picked = [first];
  if (rng.chance(TWO_COLOURS_SHARE)) {
    const second = breeds.length > 0 ? (fromBreed(breeds[1]) ?? fromBreed(breeds[0])) : anyColour();
    if (second !== null && second.id !== first.id) picked.push(second);
  }
  return picked;
}

function pickAccessory(species: SpeciesId, categories: Category[], rng: Rng): string | null {
  const primary = categories[0];
  if (primary === undefined) return null;
  const options = CATEGORY_RULES[primary.name]?.accessories[species] ?? [];
  return options.length > 0 ? rng.pick(options) : null;
}

function pickBackground(colours: ColourVariant[], rng: Rng): string {
  const coat = colours[0] !== undefined ? coatColour(colours[0]) : null;
  if (coat === null) {
    const base = parseHex(rng.pick(NEUTRAL_BACKGROUNDS));
    return toHex(base.map((v) => v + rng.int(-6, 6)) as Rgb);
  }
  // Pastel tint of the coat colour: mostly white, a little of the coat, a touch of warm/cool variation.
  const tint = mix(parseHex(coat), [255, 255, 255], 0.52 + rng.next() * 0.22);
  const hueShift = rng.pick([parseHex('#ffe9d6'), parseHex('#e4eefa'), parseHex('#eaf5e4'), parseHex('#f7f7f7')]);
  return toHex(mix(tint, hueShift, 0.15));
}

/** Aspect ratios (width:height) and how often they occur: mostly landscape, as phone and camera photos are. */
const ASPECTS: { w: number; h: number; weight: number }[] = [
  { w: 4, h: 3, weight: 30 },
  { w: 3, h: 2, weight: 15 },
  { w: 1, h: 1, weight: 20 },
  { w: 16, h: 9, weight: 10 },
  { w: 3, h: 4, weight: 15 },
  { w: 2, h: 3, weight: 5 },
  { w: 4, h: 5, weight: 5 },
];

function pickSize(rng: Rng): { width: number; height: number } {
  const aspect = rng.weighted(ASPECTS, (a) => a.weight);
  const ratio = Math.max(aspect.w, aspect.h) / Math.min(aspect.w, aspect.h);
  const longMin = Math.ceil((MIN_SIDE * ratio) / 8) * 8;
  const long = rng.int(longMin / 8, MAX_SIDE / 8) * 8;
  const short = Math.max(MIN_SIDE, Math.round(long / ratio));
  return aspect.w >= aspect.h ? { width: long, height: short } : { width: short, height: long };
}

function pickCreatedAt(rng: Rng): string {
  // Slightly more images later in the range (the catalogue grows); whole seconds.
  const u = rng.next() ** 0.85;
  const seconds = Math.floor((CREATED_FROM + u * (CREATED_TO - CREATED_FROM)) / 1000);
  return new Date(seconds * 1000).toISOString();
}

/** Generates the catalogue from the data sets; pure and deterministic. */
export function generateCatalogue(inputs: CatalogueInputs): CatalogueImage[] {
  const breedById = new Map(inputs.breeds.map((b) => [b.id, b]));
  const variantById = new Map(inputs.colours.variants.map((v) => [v.id, v]));
  /** Weight of a colour for images without a breed: how many breeds allow it (plus one). */
  const poolWeight = new Map<string, number>();
  for (const ids of Object.values(inputs.colours.breeds))
    for (const id of ids) poolWeight.set(id, (poolWeight.get(id) ?? 1) + 1);

  const images: CatalogueImage[] = [];
  const usedIds = new Set<string>();
  for (const species of SPECIES) {
    const living = inputs.breeds.filter((b) => b.species_id === species && !b.extinct);
    const speciesPool = inputs.colours.variants.filter(
      (v) =>
        v.species_id === species &&
        (v.kind === 'colour' || v.kind === 'combination' || (species === 'dog' && v.kind === 'pattern')),
    );
    const slots = allocateSlots(species, living, new Rng(`${CATALOGUE_SEED}/slots/${species}`));
    slots.forEach((slot, index) => {
      const rng = new Rng(`${CATALOGUE_SEED}/image/${species}/${index}`);
      const breeds = slot.breeds.map((id) => breedById.get(id)).filter((b): b is Breed => b !== undefined);
      const categories = pickCategories(species, breeds, inputs.categories, rng);
      const colours = pickColours(species, breeds, inputs.colours, speciesPool, variantById, poolWeight, rng);
      const age = pickAge(species, breeds, categories, rng);
      const { width, height } = pickSize(rng);
      const accessory = pickAccessory(species, categories, rng);
      const background = pickBackground(colours, rng);
      const scale = Math.round((accessory === null ? 0.58 + rng.next() * 0.22 : 0.55 + rng.next() * 0.15) * 100) / 100;
      const createdAt = pickCreatedAt(rng);
      let id = imageIdFor(`${CATALOGUE_SEED}/${species}/${index}`);
      for (let n = 1; usedIds.has(id); n++) id = imageIdFor(`${CATALOGUE_SEED}/${species}/${index}/${n}`);
      usedIds.add(id);
      images.push({
        id,
        file: `${CATALOGUE_PREFIX}${id}.jpg`,
        width,
        height,
        species_id: species,
        breed_ids: slot.breeds,
        category_ids: categories.map((c) => c.id),
        colour_ids: colours.map((c) => c.id),
        age_months: age,
        created_at: createdAt,
        render: {
          coat: colours[0] !== undefined ? coatRecipe(colours[0]) : null,
          ...caption(species, breeds, colours),
          accessory,
          background,
          scale,
        },
      });
    });
  }
  return images.sort((a, b) =>
    a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Validation and output

/** Names of every Noto icon (aliases included). */
async function notoIconNames(): Promise<Set<string>> {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@iconify-json/noto/icons.json');
  const set = JSON.parse(await readFile(file, 'utf8')) as {
    icons: Record<string, unknown>;
    aliases?: Record<string, unknown>;
  };
  return new Set([...Object.keys(set.icons), ...Object.keys(set.aliases ?? {})]);
}

/** Checks the catalogue contract (docs/data.md, "Image catalogue"); returns every problem found. */
export function validateCatalogue(images: CatalogueImage[], inputs: CatalogueInputs, iconNames: Set<string>): string[] {
  const problems: string[] = [];
  const breedById = new Map(inputs.breeds.map((b) => [b.id, b]));
  const categoryById = new Map(inputs.categories.map((c) => [c.id, c]));
  const variantById = new Map(inputs.colours.variants.map((v) => [v.id, v]));
  const ids = new Set<string>();
  const breedUse = new Map<string, number>();
  const categoryUse = new Map<number, number>();
  if (images.length < 1200) problems.push(`only ${images.length} images (at least 1200 required)`);
  images.forEach((img, i) => {
    const at = `image ${img.id}`;
    if (!/^[A-Za-z0-9]{9}$/.test(img.id)) problems.push(`${at}: id must be 9 base62 characters`);
    if (ids.has(img.id)) problems.push(`${at}: duplicate id`);
    ids.add(img.id);
    if (img.file !== `${CATALOGUE_PREFIX}${img.id}.jpg`) problems.push(`${at}: unexpected file ${img.file}`);
    for (const side of [img.width, img.height]) {
      if (!Number.isInteger(side) || side < MIN_SIDE || side > MAX_SIDE)
        problems.push(`${at}: size ${img.width}x${img.height} out of range`);
    }
    if (img.species_id !== 'dog' && img.species_id !== 'cat')
      problems.push(`${at}: bad species ${String(img.species_id)}`);
    if (img.breed_ids.length > 2 || new Set(img.breed_ids).size !== img.breed_ids.length)
      problems.push(`${at}: 0-2 distinct breeds`);
    for (const id of img.breed_ids) {
      const breed = breedById.get(id);
      if (breed === undefined || breed.species_id !== img.species_id)
        problems.push(`${at}: breed ${id} unknown or of another species`);
      breedUse.set(id, (breedUse.get(id) ?? 0) + 1);
    }
    if (img.category_ids.length > 2 || new Set(img.category_ids).size !== img.category_ids.length)
      problems.push(`${at}: 0-2 distinct categories`);
    for (const id of img.category_ids) {
      const category = categoryById.get(id);
      if (category === undefined || !category.species_ids.includes(img.species_id))
        problems.push(`${at}: category ${id} unknown or not for ${img.species_id}`);
      categoryUse.set(id, (categoryUse.get(id) ?? 0) + 1);
    }
    if (img.colour_ids.length > 2 || new Set(img.colour_ids).size !== img.colour_ids.length)
      problems.push(`${at}: 0-2 distinct colours`);
    const breedColours = new Set(img.breed_ids.flatMap((id) => inputs.colours.breeds[id] ?? []));
    for (const id of img.colour_ids) {
      const variant = variantById.get(id);
      if (variant === undefined || variant.species_id !== img.species_id)
        problems.push(`${at}: colour ${id} unknown or of another species`);
      if (img.breed_ids.length > 0 && !breedColours.has(id))
        problems.push(`${at}: colour ${id} is not among the colours of ${img.breed_ids.join(' & ')}`);
    }
    if (img.age_months !== null && (!Number.isInteger(img.age_months) || img.age_months < 1 || img.age_months > 180)) {
      problems.push(`${at}: age_months ${img.age_months} out of range`);
    }
    const created = Date.parse(img.created_at);
    if (
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/.test(img.created_at) ||
      !(created >= CREATED_FROM && created < CREATED_TO)
    ) {
      problems.push(`${at}: created_at ${img.created_at} malformed or out of range`);
    }
    const prev = images[i - 1];
    if (
      prev !== undefined &&
      (prev.created_at > img.created_at || (prev.created_at === img.created_at && prev.id >= img.id))
    ) {
      problems.push(`${at}: not sorted by created_at, id`);
    }
    const r = img.render;
    if (r.coat !== null) {
      const c = r.coat;
      if (!/^#[0-9a-f]{6}$/.test(c.base) || !/^#[0-9a-f]{6}$/.test(c.accent))
        problems.push(`${at}: coat colours must be #rrggbb`);
      if (!(COAT_PATTERNS as readonly string[]).includes(c.pattern)) problems.push(`${at}: coat pattern ${c.pattern}`);
    }
    if ((r.coat === null) !== (img.colour_ids.length === 0)) problems.push(`${at}: coat drawn iff a colour is tagged`);
    if (!r.subtitle.endsWith('Illustration')) problems.push(`${at}: the caption must say it is an illustration`);
    for (const id of img.breed_ids) {
      const name = inputs.breeds.find((b) => b.id === id)?.name;
      if (name !== undefined && !r.title.includes(name)) problems.push(`${at}: caption lacks breed name ${name}`);
    }
    if (r.accessory !== null && !iconNames.has(r.accessory))
      problems.push(`${at}: accessory ${r.accessory} is not a Noto icon`);
    if (!/^#[0-9a-f]{6}$/.test(r.background)) problems.push(`${at}: background ${r.background} is not #rrggbb`);
    if (!(r.scale >= 0.4 && r.scale <= 0.9)) problems.push(`${at}: scale ${r.scale} out of range`);
  });
  for (const breed of inputs.breeds) {
    if (!breed.extinct && !breedUse.has(breed.id)) problems.push(`breed ${breed.id} has no image`);
  }
  for (const category of inputs.categories) {
    if ((categoryUse.get(category.id) ?? 0) < 10)
      problems.push(`category ${category.id} (${category.name}) has fewer than 10 images`);
  }
  for (const rules of Object.values(CATEGORY_RULES)) {
    for (const name of [...rules.accessories.dog, ...rules.accessories.cat]) {
      if (name !== null && !iconNames.has(name)) problems.push(`accessory ${name} is not a Noto icon`);
    }
  }
  return problems;
}

/** One record per line inside a JSON array: valid JSON, compact, and diff-friendly. */
export function serialiseCatalogue(images: CatalogueImage[]): string {
  return `[\n${images.map((img) => `  ${JSON.stringify(img)}`).join(',\n')}\n]\n`;
}

export interface ReferenceImage {
  id: string;
  file: string;
  width: number;
  height: number;
}

/**
 * Each breed's reference image (the real service's `reference_image_id`): its first catalogue image (catalogue order,
 * by created_at then id) that shows that breed alone, else its first image showing it with another breed.
 */
export function referenceImages(images: CatalogueImage[]): Record<string, ReferenceImage> {
  const alone = new Map<string, CatalogueImage>();
  const shared = new Map<string, CatalogueImage>();
  for (const img of images) {
    for (const breedId of img.breed_ids) {
      const pick = img.breed_ids.length === 1 ? alone : shared;
      if (!pick.has(breedId)) pick.set(breedId, img);
    }
  }
  const out: Record<string, ReferenceImage> = {};
  for (const breedId of [...new Set([...alone.keys(), ...shared.keys()])].sort()) {
    const img = alone.get(breedId) ?? shared.get(breedId);
    if (img) out[breedId] = { id: img.id, file: img.file, width: img.width, height: img.height };
  }
  return out;
}

export async function readCatalogueInputs(dataDir = DATA_DIR): Promise<CatalogueInputs> {
  const read = async <T>(name: string): Promise<T> => JSON.parse(await readFile(path.join(dataDir, name), 'utf8')) as T;
  return {
    breeds: await read('breeds.json'),
    categories: await read('categories.json'),
    colours: await read('colours.json'),
  };
}

export class ImageCatalogueError extends Error {
  constructor(readonly problems: string[]) {
    super(`image catalogue has ${problems.length} problem(s):\n  - ${problems.slice(0, 50).join('\n  - ')}`);
    this.name = 'ImageCatalogueError';
  }
}

/** Generates, validates and writes data/images.json. Throws ImageCatalogueError (and writes nothing) on any violation. */
export async function buildImageCatalogue(): Promise<void> {
  const inputs = await readCatalogueInputs();
  const images = generateCatalogue(inputs);
  const problems = validateCatalogue(images, inputs, await notoIconNames());
  if (problems.length > 0) throw new ImageCatalogueError(problems);
  await mkdir(path.dirname(CATALOGUE_FILE), { recursive: true });
  await writeFile(CATALOGUE_FILE, serialiseCatalogue(images), 'utf8');
  await writeFile(BREED_IMAGES_FILE, `${JSON.stringify(referenceImages(images), null, 2)}\n`, 'utf8');
  const dogs = images.filter((i) => i.species_id === 'dog').length;
  const breeds = new Set(images.flatMap((i) => i.breed_ids)).size;
  console.log(
    `images: wrote ${images.length} images (${dogs} dog, ${images.length - dogs} cat, ${breeds} breeds) to ${path.relative(REPO_ROOT, CATALOGUE_FILE)}`,
  );
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  buildImageCatalogue().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
