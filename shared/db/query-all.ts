import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * Every item a Query matches (from its ExclusiveStartKey, if any), following LastEvaluatedKey page by page; with
 * `atMost`, only those up to the `atMost`-th item that `counts` (every item by default; reading stops at the page
 * that reaches it).
 */
export async function queryAll(
  ddb: DynamoDBDocumentClient,
  input: QueryCommandInput,
  options: { atMost?: number; counts?: (item: Record<string, unknown>) => boolean } = {},
): Promise<Record<string, unknown>[]> {
  const atMost = options.atMost ?? Number.POSITIVE_INFINITY;
  const counts = options.counts ?? (() => true);
  const items: Record<string, unknown>[] = [];
  let counted = 0;
  let startKey = input.ExclusiveStartKey;
  do {
    const page = await ddb.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) {
      if (counted >= atMost) break;
      items.push(item);
      if (counts(item)) counted++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && counted < atMost);
  return items;
}

/**
 * One numbered page of a Query without a cursor for clients to carry: the `skip` items before the page are read as
 * `keys` only (the table's key attributes, and the index's on an index), then one Query with Limit reads the page
 * from the last of them. Reads at most `skip` keys and `limit` items, however many the Query matches.
 */
export async function queryPage(
  ddb: DynamoDBDocumentClient,
  input: QueryCommandInput,
  page: { skip: number; limit: number; keys: string },
): Promise<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  if (page.skip > 0) {
    const skipped = await queryAll(
      ddb,
      { ...input, ProjectionExpression: page.keys, Limit: page.skip },
      { atMost: page.skip },
    );
    if (skipped.length < page.skip) return [];
    startKey = skipped.at(-1);
  }
  return queryAll(ddb, { ...input, Limit: page.limit, ExclusiveStartKey: startKey }, { atMost: page.limit });
}
