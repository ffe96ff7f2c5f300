// DynamoDB stream (TTL removals only) → give back what an abandoned upload took. An upload record that still awaited
// its object when its TTL ran out (the presigned URL was never used, or the function died between commit and put) is
// removed by DynamoDB; this consumer returns its month's quota use and the account's image count, exactly once per
// record: a tombstone written in the same transaction makes a redelivered stream record change nothing.
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { transactionFailures } from '../../shared/db/errors.ts';
import { expiredUploadKey } from '../../shared/db/keys.ts';
import { TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import { getDeps, type Deps } from '../../shared/deps.ts';
import { uploadCountsReturned } from '../../shared/domain/images/uploads.ts';

/** Tombstones outlive any stream retry (24 h of stream retention) by far. */
const TOMBSTONE_SECONDS = 7 * 24 * 3600;

/** What the stream filter lets through, checked again here: DynamoDB's own (TTL) removal of an awaiting upload. */
export function isExpiredUpload(record: DynamoDBRecord): boolean {
  const old = record.dynamodb?.OldImage;
  return (
    record.eventName === 'REMOVE' &&
    record.userIdentity?.type === 'Service' &&
    record.userIdentity?.principalId === 'dynamodb.amazonaws.com' &&
    old?.type?.S === 'Image' &&
    old?.source?.S === 'upload' &&
    old?.status?.S === 'awaiting_upload'
  );
}

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const deps = getDeps();
  for (const record of event.Records) {
    if (!isExpiredUpload(record)) continue;
    try {
      await giveBack(deps, unmarshall(record.dynamodb!.OldImage as never));
    } catch (error) {
      deps.log.error('returning an expired upload failed; the stream retries from it', { error });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
}

async function giveBack(deps: Deps, upload: Record<string, unknown>): Promise<void> {
  const item = { id: String(upload.id), account_id: String(upload.account_id), created_at: String(upload.created_at) };
  const table = deps.config.tableName;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: {
                ...expiredUploadKey(item.id),
                type: 'ExpiredUpload',
                account_id: item.account_id,
                [TTL_ATTRIBUTE]: Math.floor(deps.now().getTime() / 1000) + TOMBSTONE_SECONDS,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...uploadCountsReturned(table, item),
        ],
      }),
    );
    deps.log.info('expired upload returned to its quota', { imageId: item.id, accountId: item.account_id });
  } catch (error) {
    // Already returned (a redelivered record): the tombstone is there.
    if (transactionFailures(error)[0] !== 'ConditionalCheckFailed') throw error;
  }
}
