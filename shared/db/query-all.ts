import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * Every item a Query matches (from its ExclusiveStartKey, if any), following LastEvaluatedKey page by page; with
 * `atMost`, only the first that many (reading stops at the page that reaches it).
 */
export async function queryAll(
  ddb: DynamoDBDocumentClient,
  input: QueryCommandInput,
  options: { atMost?: number } = {},
): Promise<Record<string, unknown>[]> {
  const atMost = options.atMost ?? Number.POSITIVE_INFINITY;
  const items: Record<string, unknown>[] = [];
  let startKey = input.ExclusiveStartKey;
  do {
    const page = await ddb.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < atMost);
  return items.slice(0, atMost);
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
