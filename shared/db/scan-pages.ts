import { ScanCommand, type DynamoDBDocumentClient, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * The items a Scan matches, one page at a time, following LastEvaluatedKey: a caller holds one page, never the table.
 * For offline operator commands only (scripts/migrate.ts): a Scan reads the whole table, so no request path uses it.
 */
export async function* scanPages(
  ddb: DynamoDBDocumentClient,
  input: ScanCommandInput,
): AsyncGenerator<Record<string, unknown>[]> {
  let startKey = input.ExclusiveStartKey;
  do {
    const page = await ddb.send(new ScanCommand({ ...input, ExclusiveStartKey: startKey }));
    if (page.Items?.length) yield page.Items;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}
