// Reads and writes the catalogue index in the single table (layout: catalogue-index.ts).
import { createHash } from 'node:crypto';
import { LRUCache } from '@aws-lambda-powertools/commons/utils/lru-cache';
import { queryAll } from '../../db/query-all.ts';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchWriteAll } from '../../db/batch.ts';
import type { Deps } from '../../deps.ts';
import { imageFacetPartition, imageKey, imagePostingKey, refPointerKey } from '../../db/keys.ts';
import { buildPostings, ordinalKey, type CatalogueFacetContext, type ImageSummary } from './catalogue-index.ts';

const POINTER = refPointerKey('images');
const RECHECK_MS = 5 * 60 * 1000;

export interface CatalogueVersion {
  version: string;
  /** Facet → number of images in it. */
  counts: Record<string, number>;
  /** Facet → number of real photos in it (kind `photo`), which are the last postings of its list; absent: none. */
  photos: Record<string, number>;
}

type ReadDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

let cached: { value: CatalogueVersion; checkedAt: number } | undefined;

/** The current index version and facet sizes; warm functions re-read it every five minutes. */
export async function currentCatalogue(deps: ReadDeps): Promise<CatalogueVersion> {
  const nowMs = deps.now().getTime();
  if (cached && nowMs - cached.checkedAt < RECHECK_MS) return cached.value;
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: POINTER }));
  if (!Item) throw new Error('the image catalogue has not been loaded (run the seed step)');
  cached = {
    value: {
      version: String(Item.version),
      counts: Item.counts as Record<string, number>,
      photos: (Item.photos ?? {}) as Record<string, number>,
    },
    checkedAt: nowMs,
  };
  return cached.value;
}

export function clearCatalogueCache(): void {
  cached = undefined;
  held = heldFacets();
}

/** One facet of one index version, with its number of postings (from the version's pointer). */
export interface CatalogueFacet {
  version: string;
  name: string;
  size: number;
}

/**
 * Facets this container holds in memory, whole, by index version and name: every unfiltered search reads the facet
 * `all`, which from the table made its partition the stage's first DynamoDB limit (docs/scale.md). Holding a version's
 * list is safe however long: versions are content-addressed and a version's postings are never rewritten (a reseed
 * writes a new version, moves the pointer, then deletes the old one), so a held list is what the table holds for it;
 * a new catalogue reaches searches when the pointer does (its five-minute recheck above). Bounded: at most
 * `HELD.facets` lists of at most `HELD.postings` each (a larger facet is read page by page), each let go `HELD.ms`
 * after it was read, so a container keeps neither a facet nobody asks for nor a replaced version.
 */
export const HELD = { facets: 8, postings: 2_500, ms: 15 * 60 * 1000 };
const heldFacets = () =>
  new LRUCache<string, { postings: Promise<ImageSummary[]>; readAt: number }>({ maxSize: HELD.facets });
let held = heldFacets();

/** The facet's postings, held or read whole now; undefined for a facet too large to hold. */
function heldFacet(deps: ReadDeps, facet: CatalogueFacet): Promise<ImageSummary[]> | undefined {
  if (facet.size > HELD.postings) return undefined;
  const key = `${facet.version}#${facet.name}`;
  const nowMs = deps.now().getTime();
  const entry = held.get(key);
  if (entry && nowMs - entry.readAt < HELD.ms) return entry.postings;
  const postings = readFacetFromTable(deps, facet);
  held.add(key, { postings, readAt: nowMs });
  // A failed read is not held: the next search tries the table again.
  postings.catch(() => held.remove(key));
  return postings;
}

/** Postings `from`..`to` (inclusive ordinals) of a facet, in ordinal order or reversed. */
export async function readOrdinalRange(
  deps: ReadDeps,
  facet: CatalogueFacet,
  from: number,
  to: number,
  descending: boolean,
): Promise<ImageSummary[]> {
  if (to < from) return [];
  const whole = heldFacet(deps, facet);
  if (whole) {
    const range = (await whole).slice(from, to + 1);
    return descending ? range.reverse() : range;
  }
  const { Items = [] } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': imageFacetPartition(facet.version, facet.name),
        ':from': ordinalKey(from),
        ':to': ordinalKey(to),
      },
      ScanIndexForward: !descending,
    }),
  );
  return Items.map((item) => item.image as ImageSummary);
}

/** The postings at the given ordinals (at most 100), returned in the order asked for. */
export async function readOrdinals(deps: ReadDeps, facet: CatalogueFacet, ordinals: number[]): Promise<ImageSummary[]> {
  if (ordinals.length === 0) return [];
  const whole = heldFacet(deps, facet);
  if (whole) {
    const postings = await whole;
    return ordinals.flatMap((n) => postings[n] ?? []);
  }
  const items = await batchGetAll(
    deps.ddb,
    deps.config.tableName,
    ordinals.map((n) => imagePostingKey(facet.version, facet.name, ordinalKey(n))),
  );
  const found = new Map(items.map((item) => [item.sk as string, item.image as ImageSummary]));
  return ordinals.flatMap((n) => found.get(ordinalKey(n)) ?? []);
}

/** Every posting of a facet (used when filters remain that no single facet answers). */
export const readFacet = (deps: ReadDeps, facet: CatalogueFacet): Promise<ImageSummary[]> =>
  heldFacet(deps, facet) ?? readFacetFromTable(deps, facet);

async function readFacetFromTable(deps: ReadDeps, facet: CatalogueFacet): Promise<ImageSummary[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': imageFacetPartition(facet.version, facet.name) },
  });
  return items.map((item) => item.image as ImageSummary);
}

/**
 * Per facet, how many real photos end its list. The photos are dated after every illustration (the data build sees to
 * it), so catalogue order puts them last; a photo anywhere else would break "photos first" in search, so it throws.
 */
export function photoTails(postings: Map<string, ImageSummary[]>): Record<string, number> {
  const tails: Record<string, number> = {};
  for (const [facetName, list] of postings) {
    const count = list.filter((i) => i.kind === 'photo').length;
    if (count === 0) continue;
    if (list.slice(list.length - count).some((i) => i.kind !== 'photo'))
      throw new Error(`facet ${facetName}: the catalogue's photos must come after its illustrations`);
    tails[facetName] = count;
  }
  return tails;
}

/**
 * Writes a catalogue as a new index version (content-addressed), then points searches at it and removes the
 * postings of the version it replaced.
 */
export async function writeCatalogueIndex(
  ddb: DynamoDBDocumentClient,
  tableName: string,
  images: ImageSummary[],
  ctx: CatalogueFacetContext,
  options: { concurrency?: number; onlyFacets?: (facetName: string) => boolean } = {},
): Promise<{ version: string; facets: number; postings: number; changed: boolean }> {
  const version = createHash('sha256').update(JSON.stringify(images)).digest('hex').slice(0, 16);
  const postings = buildPostings(images, ctx);
  // Benchmarks index only the facets their queries read; each facet is its own partition, so the rest change nothing.
  if (options.onlyFacets) for (const f of [...postings.keys()]) if (!options.onlyFacets(f)) postings.delete(f);
  const total = [...postings.values()].reduce((n, list) => n + list.length, 0);
  const { Item: current } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: POINTER, ConsistentRead: true }),
  );
  if (current?.version === version) return { version, facets: postings.size, postings: total, changed: false };

  const puts = [
    // Each image also gets its own item: votes and favourites check that the image they name exists.
    ...images.map((image) => ({
      PutRequest: { Item: { ...imageKey(image.id), type: 'Image', source: 'catalogue', status: 'approved', ...image } },
    })),
    ...[...postings].flatMap(([facetName, list]) =>
      list.map((image, n) => ({
        PutRequest: { Item: { ...imagePostingKey(version, facetName, ordinalKey(n)), type: 'ImagePosting', image } },
      })),
    ),
  ];
  await batchWriteAll(ddb, tableName, puts, options.concurrency ?? 4);
  const counts = Object.fromEntries([...postings].map(([facetName, list]) => [facetName, list.length]));
  const photos = photoTails(postings);
  await ddb.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...POINTER, type: 'ImageCatalogue', version, counts, photos, images: images.length },
    }),
  );

  if (current?.version) {
    const old = Object.entries(current.counts as Record<string, number>).flatMap(([facetName, count]) =>
      Array.from({ length: count }, (_, n) => ({
        DeleteRequest: { Key: imagePostingKey(String(current.version), facetName, ordinalKey(n)) },
      })),
    );
    await batchWriteAll(ddb, tableName, old, options.concurrency ?? 4);
  }
  return { version, facets: postings.size, postings: total, changed: true };
}
