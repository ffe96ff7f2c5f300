// What a pet upload whose bytes never arrived had taken, given back exactly once: the month's quota use, the pet's
// count, the photo's hash (so the same bytes can be sent again) and its rate slot (a photo that never arrived is not
// one of the pet's 100 per 24 hours). Used when storing the bytes fails during the request, and by the consumer of
// DynamoDB's TTL removals of abandoned two-step uploads (events/media/expire-uploads.ts).
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { transactionFailures } from '../../db/errors.ts';
import { petKey, petMediaKey, petPhotoHashKey, petRateSlotKey } from '../../db/keys.ts';
import type { TransactItem } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { quotaReturn } from '../accounts/quota.ts';
import type { PetMediaItem } from './media.ts';
import { petCountWrite } from './photos.ts';

type GiveBackDeps = Pick<Deps, 'ddb' | 'config'>;

export type TakenMedia = Pick<
  PetMediaItem,
  'id' | 'pet_id' | 'account_id' | 'kind' | 'sha256' | 'created_at' | 'rate_slot' | 'rate_slot_at'
>;

/** Reads race with new uploads to the pet: a cancelled give-back reads again this many times before it fails. */
const ATTEMPTS = 3;

/**
 * Writes `claim` (the media record's removal, or a tombstone for one DynamoDB removed) with everything the media
 * took, in one transaction. False when `claim` fails its condition: someone else already settled this record.
 */
export async function giveBackPetMedia(deps: GiveBackDeps, media: TakenMedia, claim: TransactItem): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const items = [claim, ...(await whatWasTaken(deps, media))];
    try {
      await deps.ddb.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      const reasons = transactionFailures(error);
      if (reasons[0] === 'ConditionalCheckFailed') return false;
      // The pet, hash or slot changed between the read and the write: read again.
      if (!reasons.includes('ConditionalCheckFailed') || attempt === ATTEMPTS) throw error;
    }
  }
}

/** The record itself, while it still awaits its bytes (a processor that saw them first wins). */
export const removeAwaitingMedia = (table: string, media: TakenMedia): TransactItem => ({
  Delete: {
    TableName: table,
    Key: petMediaKey(media.pet_id, media.id),
    ConditionExpression: '#status = :awaiting',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':awaiting': 'awaiting_upload' },
  },
});

/** The returning writes for what is still the media's: the pet, hash and slot are read, each written only if unchanged. */
async function whatWasTaken(deps: GiveBackDeps, media: TakenMedia): Promise<TransactItem[]> {
  const table = deps.config.tableName;
  const read = async (key: Record<string, string>) =>
    (await deps.ddb.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  const [pet, hash, slot] = await Promise.all([
    read(petKey(media.pet_id)),
    media.sha256 ? read(petPhotoHashKey(media.pet_id, media.sha256)) : undefined,
    media.rate_slot !== null ? read(petRateSlotKey(media.pet_id, media.rate_slot)) : undefined,
  ]);
  const items: TransactItem[] = [quotaReturn(table, media.account_id, media.created_at)];
  if (pet?.account_id === media.account_id) {
    const field = media.kind === 'video' ? 'video_count' : 'photo_count';
    items.push(petCountWrite(table, { id: media.pet_id, account_id: media.account_id }, -1, field));
  }
  if (hash && hash.media_id === media.id)
    items.push({
      Delete: {
        TableName: table,
        Key: petPhotoHashKey(media.pet_id, media.sha256!),
        ConditionExpression: 'media_id = :id',
        ExpressionAttributeValues: { ':id': media.id },
      },
    });
  if (slot && media.rate_slot !== null && slot.used_at === media.rate_slot_at)
    items.push({
      Delete: {
        TableName: table,
        Key: petRateSlotKey(media.pet_id, media.rate_slot),
        ConditionExpression: 'used_at = :taken',
        ExpressionAttributeValues: { ':taken': media.rate_slot_at },
      },
    });
  return items;
}
