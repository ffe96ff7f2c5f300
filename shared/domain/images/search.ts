// Image search over the catalogue index: picks the smallest facet that answers a filter exactly, and only
// reads whole posting lists when some filter has no facet of its own (see docs/ARCHITECTURE.md#image-search).
// Each facet has two tiers: the seeded catalogue, then the public library (public-index.ts).
import type { Deps } from '../../deps.ts';
import type { Species } from '../reference/species.ts';
import { shuffle } from '../../schema/paging.ts';
import { facet, type ImageSummary } from './catalogue-index.ts';
import { currentCatalogue, readFacet, readOrdinalRange, readOrdinals } from './catalogue-store.ts';
import {
  type FacetHead,
  readHeads,
  readPublicFacet,
  readPublicOrdinals,
  readPublicRange,
  sizeOf,
} from './public-index.ts';

export const ORDER_BY = ['created_at', 'id'] as const;
export type OrderBy = (typeof ORDER_BY)[number];

export interface ImageFilter {
  species?: Species | undefined;
  breedIds?: string[] | undefined;
  breedGroups?: string[] | undefined;
  excludeBreedGroups?: string[] | undefined;
  hasBreeds?: boolean | undefined;
  categoryIds?: number[] | undefined;
  colourIds?: string[] | undefined;
  colourCode?: string | undefined;
  hasColours?: boolean | undefined;
  ageMonthsMin?: number | undefined;
  ageMonthsMax?: number | undefined;
  accountId?: string | undefined;
}

export interface ImageSearch {
  filter: ImageFilter;
  /** Omitted: random, as the real service does. */
  order: 'ASC' | 'DESC' | 'RANDOM' | undefined;
  orderBy: OrderBy;
  page: number;
  limit: number;
}

export interface ImageSearchResult {
  images: ImageSummary[];
  total: number;
}

/** How search reads reference data: a breed's groups (lower-case) and a colour variant's registry code. */
export interface SearchContext {
  groupsOf: (breedId: string) => string[];
  codeOf: (colourId: string) => string | undefined;
}

/** A filter answered exactly by one facet list, or by the union of several (an OR list). */
type Constraint = { facets: string[]; test: (image: ImageSummary, ctx: SearchContext) => boolean };

function constraintsOf(f: ImageFilter): Constraint[] {
  const lower = (xs: string[]) => xs.map((x) => x.toLowerCase());
  const list: Constraint[] = [];
  if (f.species !== undefined && f.hasBreeds !== undefined) {
    list.push({
      facets: [facet.speciesHasBreeds(f.species, f.hasBreeds)],
      test: (i) => i.species_id === f.species && i.breed_ids.length > 0 === f.hasBreeds,
    });
  } else if (f.species !== undefined) {
    list.push({ facets: [facet.species(f.species)], test: (i) => i.species_id === f.species });
  } else if (f.hasBreeds !== undefined) {
    list.push({ facets: [facet.hasBreeds(f.hasBreeds)], test: (i) => i.breed_ids.length > 0 === f.hasBreeds });
  }
  if (f.breedIds?.length)
    list.push({ facets: f.breedIds.map(facet.breed), test: (i) => i.breed_ids.some((b) => f.breedIds!.includes(b)) });
  if (f.breedGroups?.length) {
    const groups = lower(f.breedGroups);
    list.push({
      facets: groups.map(facet.group),
      test: (i, ctx) => i.breed_ids.some((b) => ctx.groupsOf(b).some((g) => groups.includes(g))),
    });
  }
  if (f.categoryIds?.length)
    list.push({
      facets: f.categoryIds.map(facet.category),
      test: (i) => i.category_ids.some((c) => f.categoryIds!.includes(c)),
    });
  if (f.colourIds?.length)
    list.push({
      facets: f.colourIds.map(facet.colour),
      test: (i) => i.colour_ids.some((c) => f.colourIds!.includes(c)),
    });
  if (f.colourCode !== undefined) {
    const code = f.colourCode.toLowerCase();
    list.push({
      facets: [facet.colourCode(code)],
      test: (i, ctx) => i.colour_ids.some((c) => ctx.codeOf(c)?.toLowerCase() === code),
    });
  }
  if (f.hasColours !== undefined)
    list.push({ facets: [facet.hasColours(f.hasColours)], test: (i) => i.colour_ids.length > 0 === f.hasColours });
  if (f.accountId !== undefined)
    list.push({ facets: [facet.account(f.accountId)], test: (i) => i.account_id === f.accountId });
  return list;
}

/** Filters no facet answers: evaluated on the images of the chosen facet. */
function residualTest(f: ImageFilter, { groupsOf }: SearchContext): ((image: ImageSummary) => boolean) | undefined {
  const excluded = f.excludeBreedGroups?.map((g) => g.toLowerCase()) ?? [];
  const tests: ((image: ImageSummary) => boolean)[] = [];
  if (excluded.length) tests.push((i) => !i.breed_ids.some((b) => groupsOf(b).some((g) => excluded.includes(g))));
  if (f.ageMonthsMin !== undefined) tests.push((i) => i.age_months !== null && i.age_months >= f.ageMonthsMin!);
  if (f.ageMonthsMax !== undefined) tests.push((i) => i.age_months !== null && i.age_months <= f.ageMonthsMax!);
  return tests.length ? (image) => tests.every((t) => t(image)) : undefined;
}

export async function searchImages(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>,
  search: ImageSearch,
  ctx: SearchContext,
): Promise<ImageSearchResult> {
  const { version, counts, photos } = await currentCatalogue(deps);
  const constraints = constraintsOf(search.filter);
  // The public library's facet sizes are read on every search (one BatchGetItem): a published photo is found at once.
  const heads = await readHeads(deps, [facet.all(), ...constraints.flatMap((c) => c.facets)]);
  const tiers = (f: string): FacetTiers => ({
    facet: f,
    catalogue: counts[f] ?? 0,
    photos: photos[f] ?? 0,
    library: heads.get(f),
  });
  const size = (facets: string[]) => facets.reduce((n, f) => n + totalOf(tiers(f)), 0);
  // The smallest list that satisfies one constraint exactly is where the search starts.
  const base = constraints.reduce<Constraint | undefined>(
    (best, c) => (!best || size(c.facets) < size(best.facets) ? c : best),
    undefined,
  ) ?? {
    facets: [facet.all()],
    test: () => true,
  };
  const others = constraints.filter((c) => c !== base);
  const residual = residualTest(search.filter, ctx);
  const exact = base.facets.length === 1 && others.length === 0 && !residual;

  if (exact && search.orderBy === 'created_at') return pageOfFacet(deps, version, tiers(base.facets[0]!), search);

  // Filters remain (or an order the index does not keep): read the base list and finish in memory.
  const lists = await Promise.all(
    base.facets.filter((f) => size([f]) > 0).map((f) => readWholeFacet(deps, version, tiers(f))),
  );
  const seen = new Set<string>();
  const matching = lists
    .flat()
    .filter((image) => !seen.has(image.id) && seen.add(image.id))
    .filter((image) => others.every((c) => c.test(image, ctx)) && (!residual || residual(image)));
  return pageInMemory(matching, search, deps.random);
}

/**
 * One facet in both tiers: the catalogue's postings (ordinals 0..catalogue-1, its `photos` real photos last), then the
 * public library's (all photos). So a facet's real photos are one run of ordinals at its end.
 */
interface FacetTiers {
  facet: string;
  catalogue: number;
  photos: number;
  library: FacetHead | undefined;
}

const totalOf = (t: FacetTiers) => t.catalogue + sizeOf(t.library);

async function readWholeFacet(deps: ReadDeps, version: string, t: FacetTiers): Promise<ImageSummary[]> {
  const [catalogue, library] = await Promise.all([
    t.catalogue > 0 ? readFacet(deps, { version, name: t.facet, size: t.catalogue }) : [],
    sizeOf(t.library) > 0 ? readPublicFacet(deps, t.facet) : [],
  ]);
  return [...catalogue, ...library];
}

type ReadDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>;

async function pageOfFacet(deps: ReadDeps, version: string, t: FacetTiers, search: ImageSearch) {
  const total = totalOf(t);
  const { facet: f, catalogue: n } = t;
  const catalogue = { version, name: f, size: n };
  const library = t.library ?? { sizes: [], rev: 0 };
  if (search.order === 'ASC' || search.order === 'DESC') {
    const start = search.page * search.limit;
    const end = Math.min(total, start + search.limit) - 1;
    const [from, to] = search.order === 'ASC' ? [start, end] : [total - 1 - end, total - 1 - start];
    const descending = search.order === 'DESC';
    const [inCatalogue, inLibrary] = await Promise.all([
      readOrdinalRange(deps, catalogue, from, Math.min(to, n - 1), descending),
      readPublicRange(deps, f, library, Math.max(from, n) - n, to - n, descending),
    ]);
    return { images: descending ? [...inLibrary, ...inCatalogue] : [...inCatalogue, ...inLibrary], total };
  }
  // The default random page shows real photos first: a sample of the facet's photos, then of its illustrations.
  const firstPhoto = n - t.photos;
  const photoOrdinals = sampleOrdinals(total - firstPhoto, search.limit, deps.random).map((o) => o + firstPhoto);
  const ordinals = [...photoOrdinals, ...sampleOrdinals(firstPhoto, search.limit - photoOrdinals.length, deps.random)];
  const [inCatalogue, inLibrary] = await Promise.all([
    readOrdinals(
      deps,
      catalogue,
      ordinals.filter((o) => o < n),
    ),
    readPublicOrdinals(
      deps,
      f,
      library,
      ordinals.filter((o) => o >= n).map((o) => o - n),
    ),
  ]);
  return { images: photosFirst(shuffle([...inCatalogue, ...inLibrary], deps.random)), total };
}

/** Real photos before illustrations, each group in the order it came. */
const photosFirst = (images: ImageSummary[]) => [
  ...images.filter((i) => i.kind === 'photo'),
  ...images.filter((i) => i.kind !== 'photo'),
];

/** `k` distinct ordinals from [0, n), uniformly. */
function sampleOrdinals(n: number, k: number, random: () => number): number[] {
  if (n <= k) return shuffle([...Array(n).keys()], random);
  const picked = new Set<number>();
  while (picked.size < k) picked.add(Math.floor(random() * n));
  return [...picked];
}

function pageInMemory(images: ImageSummary[], search: ImageSearch, random: () => number): ImageSearchResult {
  const total = images.length;
  if (search.order !== 'ASC' && search.order !== 'DESC')
    return { images: photosFirst(shuffle([...images], random)).slice(0, search.limit), total };
  const key = search.orderBy === 'id' ? (i: ImageSummary) => i.id : (i: ImageSummary) => `${i.created_at}\u0000${i.id}`;
  const sorted = [...images].sort((a, b) => key(a).localeCompare(key(b)));
  if (search.order === 'DESC') sorted.reverse();
  const start = search.page * search.limit;
  return { images: sorted.slice(start, start + search.limit), total };
}
