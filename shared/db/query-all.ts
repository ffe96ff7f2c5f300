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
