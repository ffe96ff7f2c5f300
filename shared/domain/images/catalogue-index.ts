// The image catalogue's search index: for every filterable value (a "facet": a breed, a category, a colour, …)
// a posting list of image summaries under one partition, addressed by dense ordinals. A page in ASC/DESC order
// is one Query over an ordinal range, a RANDOM page one BatchGetItem of random ordinals, and every facet's size
// sits in the version pointer: the cost of a page does not depend on how many images the catalogue holds.
import type { Species } from '../reference/species.ts';

/** What search needs of an image, stored in every posting so a page needs no second read. */
export interface ImageSummary {
  id: string;
  file: string;
  width: number;
  height: number;
  species_id: Species;
  breed_ids: string[];
  category_ids: number[];
  colour_ids: string[];
  age_months: number | null;
  created_at: string;
  account_id?: string | null;
  /** Photos of the public library; absent on the catalogue's illustrations. */
  kind?: 'photo';
  /** Who made a photo and under which licence (the public library's photos carry it). */
  attribution?: Attribution;
}

export interface Attribution {
  /** How the author is credited; null when the contributor asked for no name. */
  author: string | null;
  /** An SPDX licence id (`CC-BY-4.0`), `public-domain`, or the licence's URL. */
  licence: string;
  /** The licence's text (the catalogue's photos carry it; for other photos it is derived from `licence`). */
  licence_url?: string;
  /** Where the photo was published first; null for photos uploaded to this service or whose source is not known. */
  source_url: string | null;
}

export interface CatalogueFacetContext {
  /** Breed id → its breed groups (lower-case), for the breed_groups filters. */
  groupsOf: Map<string, string[]>;
  /** Colour variant id → its registry code, for colour_code. */
  codeOf: Map<string, string>;
}

export const facet = {
  all: () => 'all',
  species: (s: string) => `species:${s}`,
  hasBreeds: (has: boolean) => `has_breeds:${has ? 1 : 0}`,
  speciesHasBreeds: (s: string, has: boolean) => `species:${s}|has_breeds:${has ? 1 : 0}`,
  breed: (id: string) => `breed:${id}`,
  group: (name: string) => `group:${name.toLowerCase()}`,
  category: (id: number) => `category:${id}`,
  colour: (id: string) => `colour:${id}`,
  colourCode: (code: string) => `colour_code:${code.toLowerCase()}`,
  hasColours: (has: boolean) => `has_colours:${has ? 1 : 0}`,
  account: (id: string) => `account:${id}`,
};

/** Every facet an image belongs to. */
export function facetsOf(image: ImageSummary, ctx: CatalogueFacetContext): string[] {
  const hasBreeds = image.breed_ids.length > 0;
  const facets = [
    facet.all(),
    facet.species(image.species_id),
    facet.hasBreeds(hasBreeds),
    facet.speciesHasBreeds(image.species_id, hasBreeds),
    facet.hasColours(image.colour_ids.length > 0),
    ...image.breed_ids.map(facet.breed),
    ...image.breed_ids.flatMap((b) => ctx.groupsOf.get(b) ?? []).map(facet.group),
    ...image.category_ids.map(facet.category),
    ...image.colour_ids.map(facet.colour),
    ...image.colour_ids.flatMap((c) => (ctx.codeOf.has(c) ? [ctx.codeOf.get(c)!] : [])).map(facet.colourCode),
    ...(image.account_id ? [facet.account(image.account_id)] : []),
  ];
  return [...new Set(facets)];
}

/** Postings per facet, each list in catalogue order (created_at, then id). */
export function buildPostings(images: ImageSummary[], ctx: CatalogueFacetContext): Map<string, ImageSummary[]> {
  const ordered = [...images].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const postings = new Map<string, ImageSummary[]>();
  for (const image of ordered) {
    for (const f of facetsOf(image, ctx)) {
      const list = postings.get(f) ?? [];
      list.push(image);
      postings.set(f, list);
    }
  }
  return postings;
}

export const ORDINAL_WIDTH = 8;
export const ordinalKey = (n: number) => String(n).padStart(ORDINAL_WIDTH, '0');
