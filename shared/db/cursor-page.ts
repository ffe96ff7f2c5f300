// Pages of a Query that a filter may thin: a bounded number of Queries per page, so a selective filter ends a page
// short rather than reading without end. Lists that clients continue carry the next start as a cursor (the
// `Next-Cursor` header, sent back as `cursor`).
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../errors.ts';

/** Queries one page may send. */
const MAX_QUERIES_PER_PAGE = 5;
/** Items DynamoDB evaluates per Query (before the filter). */
const EVALUATED_PER_QUERY = 100;

type Key = Record<string, unknown>;

/**
 * Up to `limit` items from the input's ExclusiveStartKey on, reading at most MAX_QUERIES_PER_PAGE ×
 * EVALUATED_PER_QUERY items; `next` is where the following page starts, undefined when no item follows. A full page
 * looks one item further, so a list that ends exactly at a page's end hands out no cursor to an empty page; only a
 * page ended by the read budget may (what follows its last read is not known yet).
 */
export async function queryFilteredPage(
  ddb: DynamoDBDocumentClient,
  input: QueryCommandInput,
  limit: number,
): Promise<{ items: Key[]; next: Key | undefined }> {
  const items: Key[] = [];
  let startKey = input.ExclusiveStartKey;
  for (let queries = 0; queries < MAX_QUERIES_PER_PAGE; queries++) {
    const { Items = [], LastEvaluatedKey } = await ddb.send(
      new QueryCommand({ ...input, Limit: EVALUATED_PER_QUERY, ExclusiveStartKey: startKey }),
    );
    for (const item of Items) {
      // One more than a page: the page ends at the item before it, whatever the Query read after it.
      if (items.length === limit) return { items, next: items.at(-1) };
      items.push(item);
    }
    startKey = LastEvaluatedKey;
    if (!startKey) return { items, next: undefined };
  }
  return { items, next: startKey };
}

export interface CursorList {
  /** The key attributes of the table (and of the index queried): what a cursor holds. */
  keys: readonly string[];
  /** The partition queried, by attribute and value: a cursor of another list is refused. */
  partition: readonly [attribute: string, value: string];
  /** The sort-key range queried, by attribute: a cursor outside it (another window) is refused, not sent to DynamoDB. */
  range?: readonly [attribute: string, from: string, to: string];
}

/** One page of a list clients continue by cursor; `cursor` is absent on the last page. */
export async function queryCursorPage(
  ddb: DynamoDBDocumentClient,
  input: QueryCommandInput,
  list: CursorList,
  page: { limit: number; cursor: string | undefined },
): Promise<{ items: Key[]; cursor: string | undefined }> {
  const start = page.cursor === undefined ? undefined : decodeCursor(page.cursor, list);
  const { items, next } = await queryFilteredPage(ddb, { ...input, ExclusiveStartKey: start }, page.limit);
  return { items, cursor: next && encodeCursor(next, list) };
}

const encodeCursor = (item: Key, list: CursorList) =>
  Buffer.from(JSON.stringify(Object.fromEntries(list.keys.map((k) => [k, item[k]])))).toString('base64url');

/** A cursor is only ever one this list handed out; anything else is the caller's mistake. */
function decodeCursor(cursor: string, list: CursorList): Key {
  const invalid = () => badRequest('cursor is not one this list returned', { code: 'invalid_cursor' });
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (decoded === null || typeof decoded !== 'object') throw invalid();
  const key = decoded as Key;
  const [attribute, value] = list.partition;
  if (!list.keys.every((k) => typeof key[k] === 'string') || key[attribute] !== value) throw invalid();
  if (list.range) {
    const [sortKey, from, to] = list.range;
    if (!(String(key[sortKey]) >= from && String(key[sortKey]) <= to)) throw invalid();
  }
  return Object.fromEntries(list.keys.map((k) => [k, key[k]]));
}
