// The public library's tier of the image index: photos made public after the catalogue was seeded (approved uploads,
// imported sets). Search reads it after the catalogue tier of the same facet (catalogue-index.ts), so a facet's
// ordinals run over the catalogue's postings first, then these. Unlike the catalogue tier, which is rewritten as a
// whole by the deploy-time seed, this tier changes one image at a time and the seed never touches it:
//
// - per facet, a head item (`sizes`: the live count of each segment, `rev`: bumped by every change) and segments of
//   at most SEGMENT_CAPACITY summaries, each a map by image id ordered by `created_at` (publication time) then id;
// - publishing appends to the facet's last segment (a new one when full), conditioned on the head's revision, so
//   concurrent publications serialise and ordinals stay dense and in publication order;
// - unpublishing removes the summary from its segment (recorded on the image item) and lowers that segment's size:
//   a bounded write per facet however large the library grows.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../../db/batch.ts';
import { PUBLIC_SEGMENT_PREFIX, publicFacetHeadKey, publicFacetPartition, publicSegmentKey } from '../../db/keys.ts';
import { queryAll } from '../../db/query-all.ts';
import type { TransactItem } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import type { ImageSummary } from './catalogue-index.ts';

/** Summaries per segment: a range page of up to 100 spans a few segments; a segment item stays far below 400 KB. */
export const SEGMENT_CAPACITY = 50;

type ReadDeps = Pick<Deps, 'ddb' | 'config'>;

export interface FacetHead {
  /** Live summaries per segment, in segment order. */
  sizes: number[];
  rev: number;
  /** The newest publication time in the facet (kept on the `all` facet: every public image is in it). */
  last_published_at?: string | undefined;
}

const EMPTY_HEAD: FacetHead = { sizes: [], rev: 0 };
export const sizeOf = (head: FacetHead | undefined) => (head?.sizes ?? []).reduce((n, s) => n + s, 0);

/** The heads of these facets (consistent reads when they feed a write); a facet never published to has none. */
export async function readHeads(deps: ReadDeps, facets: string[], consistent = false): Promise<Map<string, FacetHead>> {
  const unique = [...new Set(facets)];
  const heads = new Map<string, FacetHead>();
  if (unique.length === 0) return heads;
  const keys = unique.map(publicFacetHeadKey);
  const items = consistent
    ? (
        await Promise.all(
          keys.map((Key) =>
            deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key, ConsistentRead: true })),
          ),
        )
      ).flatMap((r) => (r.Item ? [r.Item] : []))
    : await batchGetAll(deps.ddb, deps.config.tableName, keys);
  for (const item of items) {
    const facet = String(item.pk).slice(publicFacetPartition('').length);
    heads.set(facet, {
      sizes: (item.sizes as number[]) ?? [],
      rev: Number(item.rev ?? 0),
      last_published_at: item.last_published_at as string | undefined,
    });
  }
  return heads;
}

const ordered = (images: Record<string, ImageSummary> | undefined) =>
  Object.values(images ?? {}).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

/** Segment index and offset of each ordinal of the tier (0-based within the tier). */
function locate(sizes: number[], ordinal: number): { segment: number; offset: number } | undefined {
  let start = 0;
  for (const [segment, size] of sizes.entries()) {
    if (ordinal < start + size) return { segment, offset: ordinal - start };
    start += size;
  }
  return undefined;
}

async function readSegments(deps: ReadDeps, facet: string, segments: number[]): Promise<Map<number, ImageSummary[]>> {
  const items = await batchGetAll(
    deps.ddb,
    deps.config.tableName,
    [...new Set(segments)].map((s) => publicSegmentKey(facet, s)),
  );
  return new Map(
    items.map((item) => [
      Number(String(item.sk).slice(PUBLIC_SEGMENT_PREFIX.length)),
      ordered(item.images as Record<string, ImageSummary>),
    ]),
  );
}

/** The summaries at these tier ordinals, in the order asked for. */
export async function readPublicOrdinals(
  deps: ReadDeps,
  facet: string,
  head: FacetHead,
  ordinals: number[],
): Promise<ImageSummary[]> {
  const places = ordinals.flatMap((n) => locate(head.sizes, n) ?? []);
  if (places.length === 0) return [];
  const segments = await readSegments(
    deps,
    facet,
    places.map((p) => p.segment),
  );
  // A segment changed between the head and segment reads: its summaries shifted; whatever is there is returned.
  return places.flatMap((p) => segments.get(p.segment)?.[p.offset] ?? []);
}

/** Tier ordinals `from`..`to` (inclusive), ascending or reversed. */
export async function readPublicRange(
  deps: ReadDeps,
  facet: string,
  head: FacetHead,
  from: number,
  to: number,
  descending: boolean,
): Promise<ImageSummary[]> {
  if (to < from) return [];
  const ordinals = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const images = await readPublicOrdinals(deps, facet, head, ordinals);
  return descending ? images.reverse() : images;
}

/** Every summary of a facet's tier, in publication order (for filters no single facet answers). */
export async function readPublicFacet(deps: ReadDeps, facet: string): Promise<ImageSummary[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :segment)',
    ExpressionAttributeValues: { ':pk': publicFacetPartition(facet), ':segment': PUBLIC_SEGMENT_PREFIX },
  });
  return items.flatMap((item) => ordered(item.images as Record<string, ImageSummary>));
}

/** Where an image sits in the tier: its segment per facet (kept on the image item, for unpublishing). */
export type Placement = Record<string, number>;

/**
 * The writes that append `image` to each of its facets, given the heads read just before: each head's revision is a
 * condition, so if any facet changed meanwhile the whole transaction is refused and the caller reads again.
 */
export function appendWrites(
  tableName: string,
  image: ImageSummary,
  facets: string[],
  heads: Map<string, FacetHead>,
): { writes: TransactItem[]; placement: Placement } {
  const writes: TransactItem[] = [];
  const placement: Placement = {};
  for (const facet of facets) {
    const head = heads.get(facet) ?? EMPTY_HEAD;
    const last = head.sizes.length - 1;
    const fresh = last < 0 || head.sizes[last]! >= SEGMENT_CAPACITY;
    const segment = fresh ? head.sizes.length : last;
    placement[facet] = segment;
    const tracksLatest = facet === 'all' ? { last_published_at: image.created_at } : {};
    if (head.rev === 0) {
      writes.push({
        Put: {
          TableName: tableName,
          Item: { ...publicFacetHeadKey(facet), type: 'PublicFacetHead', sizes: [1], rev: 1, ...tracksLatest },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
    } else {
      writes.push({
        Update: {
          TableName: tableName,
          Key: publicFacetHeadKey(facet),
          UpdateExpression: `SET ${fresh ? 'sizes = list_append(sizes, :first)' : `sizes[${segment}] = sizes[${segment}] + :one`}, rev = rev + :one${facet === 'all' ? ', last_published_at = :latest' : ''}`,
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: {
            ':one': 1,
            ':rev': head.rev,
            ...(fresh && { ':first': [1] }),
            ...(facet === 'all' && { ':latest': image.created_at }),
          },
        },
      });
    }
    writes.push(
      fresh
        ? {
            Put: {
              TableName: tableName,
              Item: { ...publicSegmentKey(facet, segment), type: 'PublicFacetSegment', images: { [image.id]: image } },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          }
        : {
            Update: {
              TableName: tableName,
              Key: publicSegmentKey(facet, segment),
              UpdateExpression: 'SET images.#id = :image',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(images.#id)',
              ExpressionAttributeNames: { '#id': image.id },
              ExpressionAttributeValues: { ':image': image },
            },
          },
    );
  }
  return { writes, placement };
}

/**
 * The writes that take `imageId` out of every facet it was placed in. Each removal is conditioned on the summary
 * being there, so an image is never taken out twice; no revision condition is needed (nothing read decides them).
 */
export function removeWrites(tableName: string, imageId: string, placement: Placement): TransactItem[] {
  return Object.entries(placement).flatMap(([facet, segment]): TransactItem[] => [
    {
      Update: {
        TableName: tableName,
        Key: publicSegmentKey(facet, segment),
        UpdateExpression: 'REMOVE images.#id',
        ConditionExpression: 'attribute_exists(images.#id)',
        ExpressionAttributeNames: { '#id': imageId },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: publicFacetHeadKey(facet),
        UpdateExpression: `SET sizes[${segment}] = sizes[${segment}] - :one, rev = rev + :one`,
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ]);
}
