// Adding photos to a pet: formats by bytes, duplicates by SHA-256, the rolling 100-per-24-hours limit per pet and the
// monthly upload quota, all decided by one DynamoDB transaction per attempt (exact under any concurrency).
import { createHash } from 'node:crypto';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  petKey,
  petMediaKey,
  petPartition,
  petPhotoHashKey,
  PET_RATE_SLOT_PREFIX,
  petRateSlotKey,
} from '../../db/keys.ts';
import { transact, type CancellationReasons } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, type AppError, notFound, tooManyRequests } from '../../errors.ts';
import { PHOTO_FORMATS, type PhotoFormat } from '../../media/format.ts';
import { inspectPhotoHeader } from '../../media/photo-header.ts';
import type { Account } from '../accounts/account.ts';
import { quotaUse } from '../accounts/quota.ts';
import { asPetMedia, newPetMedia, petMediaRow, type PetMediaItem } from './media.ts';
import type { PetItem } from './pet.ts';
import { petObjectKeys } from '../media/objects.ts';
import { PET_COUNT_ITEM, petLimitReached } from './store.ts';

/** Spec: 100 new photos per pet per 24 hours (rolling). */
export const PET_PHOTO_LIMIT = 100;
export const PET_PHOTO_WINDOW_HOURS = 24;
const WINDOW_MS = PET_PHOTO_WINDOW_HOURS * 3600 * 1000;
/** Photos in one request: keeps every attempt within one transaction (3 items per photo, at most 100 items). */
export const MAX_PHOTOS_PER_REQUEST = 20;
/** Attempts when concurrent requests take the same slots; each retry re-reads the slots. */
const MAX_ATTEMPTS = 40;

export interface IncomingPhoto {
  /** Known for direct uploads; for the two-step flow only its declared size, type and hash. */
  bytes?: Buffer | undefined;
  size: number;
  format: PhotoFormat;
  sha256: string;
  filename: string | null;
  width?: number | null;
  height?: number | null;
}

/** A photo sent with the request: its header checked (shared/media/photo-header.ts), its hash taken. */
export function inspectPetPhoto(bytes: Buffer): IncomingPhoto {
  return {
    bytes,
    size: bytes.length,
    ...inspectPhotoHeader(bytes),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    filename: null,
  };
}

export interface AddedPhoto {
  media: PetMediaItem;
  /** True when the bytes matched a photo already on the pet: the existing record, nothing stored or counted. */
  duplicate: boolean;
  /** The new photo's bytes still have to be stored (direct uploads). */
  bytes?: Buffer | undefined;
}

type PhotoDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random'>;

/**
 * Records the photos on the pet in one transaction per attempt: a free rate slot per new photo (taken on the value
 * read, so two requests can never take the same slot), the media items, a hash item per photo (equal bytes twice on
 * one pet cannot both be new), the quota and the pet's count. With `createPet` the pet itself is part of it.
 * A cancelled attempt re-reads and tries again until it succeeds or a limit refuses the whole request.
 */
export async function recordPhotos(
  deps: PhotoDeps,
  account: Account,
  pet: PetItem,
  photos: IncomingPhoto[],
  options: { createPet?: Record<string, unknown>[] } = {},
): Promise<AddedPhoto[]> {
  if (photos.length > MAX_PHOTOS_PER_REQUEST)
    throw badRequest(`At most ${MAX_PHOTOS_PER_REQUEST} photos per request`, { code: 'too_many_files' });
  for (let attempt = 1; ; attempt++) {
    const existing = options.createPet ? new Map<string, PetMediaItem>() : await existingPhotos(deps, pet.id, photos);
    const plan = planPhotos(deps, pet, photos, existing);
    const fresh = plan.filter((p) => !p.duplicate);
    if (fresh.length === 0 && !options.createPet) return plan;
    const slots = fresh.length > 0 ? await takeSlots(deps, pet.id, fresh.length) : [];
    // Each new photo remembers its slot, so a photo whose bytes never arrive can give it back (give-back.ts).
    fresh.forEach((p, i) => {
      p.media = { ...p.media, rate_slot: slots[i]!.slot.index, rate_slot_at: slots[i]!.takenAt };
    });
    const items = [
      ...(options.createPet ?? []),
      ...slots.map((s) => s.write),
      ...fresh.flatMap((p) => photoWrites(deps.config.tableName, p.media)),
      ...(fresh.length > 0 ? [quotaUse(deps, account, fresh.length)] : []),
      ...(fresh.length > 0 && !options.createPet ? [petCountWrite(deps.config.tableName, pet, fresh.length)] : []),
    ];
    const outcome = await transact(deps.ddb, items, (reasons) => explain(reasons, items.length, account, pet, options))
      .then(() => 'done' as const)
      .catch((error: unknown) => {
        if (error === RETRY && attempt < MAX_ATTEMPTS) return 'retry' as const;
        throw error === RETRY ? contended() : error;
      });
    if (outcome === 'done') return plan;
    await new Promise((r) => setTimeout(r, deps.random() * 20 * Math.min(attempt, 5)));
  }
}

const RETRY = new Error('retry');
const contended = () =>
  tooManyRequests('Too many concurrent uploads to this pet; retry shortly', {
    code: 'pet_upload_contended',
    retryAfterSeconds: 1,
  });

function explain(
  reasons: CancellationReasons,
  count: number,
  account: Account,
  pet: PetItem,
  options: { createPet?: unknown[] },
): Error {
  if (options.createPet && reasons[PET_COUNT_ITEM] === 'ConditionalCheckFailed') return petLimitReached();
  // The quota write is the last item (before the pet's count when adding to an existing pet).
  const quotaIndex = count - (options.createPet ? 1 : 2);
  if (reasons[quotaIndex] === 'ConditionalCheckFailed')
    return badRequest(`The monthly upload quota of ${account.quota} images is used up; it resets on the 1st (UTC)`, {
      code: 'upload_quota_exceeded',
    });
  if (!options.createPet && reasons[count - 1] === 'ConditionalCheckFailed')
    return notFound(`Pet ${pet.id} does not exist`);
  // A slot or hash taken meanwhile, or a transaction conflict: read again and retry.
  return RETRY;
}

/** The pet's photos whose hashes match, read consistently. */
async function existingPhotos(
  deps: PhotoDeps,
  petId: string,
  photos: IncomingPhoto[],
): Promise<Map<string, PetMediaItem>> {
  const hashes = [...new Set(photos.map((p) => p.sha256))];
  const hashItems = await consistentBatchGet(
    deps,
    hashes.map((h) => petPhotoHashKey(petId, h)),
  );
  const mediaIds = hashItems.map((h) => String(h.media_id));
  const media = await consistentBatchGet(
    deps,
    mediaIds.map((id) => petMediaKey(petId, id)),
  );
  const byId = new Map(media.map((m) => [String(m.id), asPetMedia(m)]));
  return new Map(
    hashItems.flatMap((h) => {
      const found = byId.get(String(h.media_id));
      return found ? [[String(h.sha256), found] as const] : [];
    }),
  );
}

async function consistentBatchGet(deps: PhotoDeps, keys: Record<string, string>[]) {
  if (keys.length === 0) return [];
  const table = deps.config.tableName;
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = keys;
  while (pending.length > 0) {
    const result = await deps.ddb.send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
    );
    items.push(...(result.Responses?.[table] ?? []));
    pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  return items;
}

/** New records for unseen hashes, the existing record for known ones (and for a repeat within the request). */
function planPhotos(
  deps: PhotoDeps,
  pet: PetItem,
  photos: IncomingPhoto[],
  existing: Map<string, PetMediaItem>,
): AddedPhoto[] {
  const seen = new Map<string, PetMediaItem>(existing);
  return photos.map((photo) => {
    const known = seen.get(photo.sha256);
    if (known) return { media: known, duplicate: true };
    const media = newPetMedia(deps, pet, {
      kind: 'photo',
      content_type: PHOTO_FORMATS[photo.format].mimeType,
      bytes: photo.size,
      sha256: photo.sha256,
      original_filename: photo.filename,
      width: photo.width ?? null,
      height: photo.height ?? null,
      objectKey: (id) => petObjectKeys.photo(pet.account_id, pet.id, id, PHOTO_FORMATS[photo.format].extension),
    });
    seen.set(photo.sha256, media);
    return { media, duplicate: false, bytes: photo.bytes };
  });
}

function photoWrites(table: string, media: PetMediaItem) {
  return [
    { Put: { TableName: table, Item: petMediaRow(media), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: table,
        Item: {
          ...petPhotoHashKey(media.pet_id, media.sha256!),
          type: 'PetPhotoHash',
          sha256: media.sha256,
          media_id: media.id,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** The pet's count of a kind moves with the media items, and only while the pet exists. */
export function petCountWrite(
  table: string,
  pet: Pick<PetItem, 'id' | 'account_id'>,
  count: number,
  field = 'photo_count',
) {
  return {
    Update: {
      TableName: table,
      Key: petKey(pet.id),
      UpdateExpression: 'ADD #count :n',
      ConditionExpression: 'account_id = :account',
      ExpressionAttributeNames: { '#count': field },
      ExpressionAttributeValues: { ':n': count, ':account': pet.account_id },
    },
  };
}

interface Slot {
  index: number;
  usedAt: string | null;
}

/** The rate slots of the pet as stored (a slot never used has no item). */
async function readSlots(deps: PhotoDeps, petId: string): Promise<Slot[]> {
  const { Items = [] } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rate)',
      ExpressionAttributeValues: { ':pk': petPartition(petId), ':rate': PET_RATE_SLOT_PREFIX },
      ConsistentRead: true,
    }),
  );
  const used = new Map(Items.map((i) => [Number(i.slot), String(i.used_at)]));
  return Array.from({ length: PET_PHOTO_LIMIT }, (_, index) => ({ index, usedAt: used.get(index) ?? null }));
}

/**
 * Picks `count` slots free at this moment (never used, or last used before the window), at random so concurrent
 * requests rarely collide, each with the write that takes it only if it still holds the value read.
 */
async function takeSlots(deps: PhotoDeps, petId: string, count: number) {
  const now = deps.now();
  const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
  const slots = await readSlots(deps, petId);
  const free = slots.filter((s) => s.usedAt === null || s.usedAt <= windowStart);
  if (free.length < count) throw rateExceeded(slots, free.length, count, now);
  const chosen: Slot[] = [];
  const pool = [...free];
  while (chosen.length < count) chosen.push(pool.splice(Math.floor(deps.random() * pool.length), 1)[0]!);
  const takenAt = now.toISOString();
  return chosen.map((slot) => ({
    slot,
    takenAt,
    write: {
      Update: {
        TableName: deps.config.tableName,
        Key: petRateSlotKey(petId, slot.index),
        UpdateExpression: 'SET used_at = :now, slot = :slot, #type = :type',
        ConditionExpression: slot.usedAt === null ? 'attribute_not_exists(used_at)' : 'used_at = :seen',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':now': takenAt,
          ':slot': slot.index,
          ':type': 'PetRateSlot',
          ...(slot.usedAt !== null && { ':seen': slot.usedAt }),
        },
      },
    },
  }));
}

/** The spec's 429: limit, window, uploads in the window, what was asked, and when enough slots free up. */
function rateExceeded(slots: Slot[], free: number, requested: number, now: Date): AppError {
  const recent = PET_PHOTO_LIMIT - free;
  const busy = slots
    .flatMap((s) => (s.usedAt !== null ? [Date.parse(s.usedAt)] : []))
    .filter((t) => t > now.getTime() - WINDOW_MS)
    .sort((a, b) => a - b);
  const needed = requested - free;
  const freesAt = requested > PET_PHOTO_LIMIT ? undefined : busy[needed - 1];
  const retryAfter =
    freesAt === undefined ? undefined : Math.max(1, Math.ceil((freesAt + WINDOW_MS - now.getTime()) / 1000));
  return tooManyRequests(
    `A pet takes at most ${PET_PHOTO_LIMIT} new photos per ${PET_PHOTO_WINDOW_HOURS} hours; ${recent} in the last ${PET_PHOTO_WINDOW_HOURS} hours, ${requested} more requested`,
    {
      code: 'pet_upload_rate_exceeded',
      details: { limit: PET_PHOTO_LIMIT, window_hours: PET_PHOTO_WINDOW_HOURS, recent_uploads: recent, requested },
      retryAfterSeconds: retryAfter,
    },
  );
}
