// DynamoDB stream (TTL removals only) → give back what an abandoned upload took. A record that still awaited its
// bytes when its TTL ran out (the presigned URL was never used, or the function died between commit and put) is
// removed by DynamoDB; this consumer gives back, exactly once per record, what recording it took: for an image
// upload its month's quota use and the account's image count, for a pet photo or video also the pet's count, the
// photo's hash and its rate slot (shared/domain/pets/give-back.ts). A tombstone written in the same transaction makes
// a redelivered stream record change nothing.
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { transactionFailures } from '../../shared/db/errors.ts';
import { expiredPetMediaKey, expiredUploadKey } from '../../shared/db/keys.ts';
import { TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import type { Deps } from '../../shared/deps.ts';
import { uploadCountsReturned } from '../../shared/domain/images/uploads.ts';
import { giveBackPetMedia } from '../../shared/domain/pets/give-back.ts';
import { asPetMedia } from '../../shared/domain/pets/media.ts';
import { streamConsumer } from '../../shared/events/stream-consumer.ts';

/** Tombstones outlive any stream retry (24 h of stream retention) by far. */
const TOMBSTONE_SECONDS = 7 * 24 * 3600;

/** What the stream filter lets through, checked again here: DynamoDB's own (TTL) removal of an awaiting upload. */
export function isExpiredUpload(record: DynamoDBRecord): boolean {
  const old = record.dynamodb?.OldImage;
  const uploaded =
    (old?.type?.S === 'Image' && old?.source?.S === 'upload') ||
    (old?.type?.S === 'PetMedia' && (old?.kind?.S === 'photo' || old?.kind?.S === 'video'));
  return (
    record.eventName === 'REMOVE' &&
    record.userIdentity?.type === 'Service' &&
    record.userIdentity?.principalId === 'dynamodb.amazonaws.com' &&
    uploaded &&
    old?.status?.S === 'awaiting_upload'
  );
}

export const handler = streamConsumer({
  id: 'media.expire-uploads',
  select: (record) => (isExpiredUpload(record) ? unmarshall(record.dynamodb!.OldImage as never) : undefined),
  handle: (upload, deps) => giveBack(deps, upload),
});

async function giveBack(deps: Deps, removed: Record<string, unknown>): Promise<void> {
  const table = deps.config.tableName;
  const tombstone = (key: Record<string, string>) => ({
    Put: {
      TableName: table,
      Item: {
        ...key,
        type: 'ExpiredUpload',
        account_id: String(removed.account_id),
        [TTL_ATTRIBUTE]: Math.floor(deps.now().getTime() / 1000) + TOMBSTONE_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  if (removed.type === 'PetMedia') {
    const media = asPetMedia(removed);
    // False: already given back (a redelivered record): the tombstone is there.
    if (await giveBackPetMedia(deps, media, tombstone(expiredPetMediaKey(media.id))))
      deps.log.info('expired pet upload given back', { mediaId: media.id, petId: media.pet_id });
    return;
  }
  const item = {
    id: String(removed.id),
    account_id: String(removed.account_id),
    created_at: String(removed.created_at),
  };
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [tombstone(expiredUploadKey(item.id)), ...uploadCountsReturned(table, item)],
      }),
    );
    deps.log.info('expired upload returned to its quota', { imageId: item.id, accountId: item.account_id });
  } catch (error) {
    // Already returned (a redelivered record): the tombstone is there.
    if (transactionFailures(error)[0] !== 'ConditionalCheckFailed') throw error;
  }
}
