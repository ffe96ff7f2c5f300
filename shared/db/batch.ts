import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type Key = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

/** Every item found for the keys (any number), 100 per call, asking again for what DynamoDB left unprocessed. */
export async function batchGetAll(
  ddb: DynamoDBDocumentClient,
  tableName: string,
  keys: Key[],
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending = keys.slice(i, i + 100);
    while (pending.length > 0) {
      const result = await ddb.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return items;
}

/** Writes all requests, 25 per call and `concurrency` calls at once, resending what DynamoDB left unprocessed. */
export async function batchWriteAll(
  ddb: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
  concurrency = 4,
): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += 25) batches.push(requests.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!;
      while (pending.length > 0) {
        const result = await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (result.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
