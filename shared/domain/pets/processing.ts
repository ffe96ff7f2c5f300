// The async half of pet uploads: an original arrived in the bucket → its record moves to pending → the kind's
// processor derives what is served → ready, or rejected with a reason. Every status change is a lifecycle transition
// (conditional), so a repeated notification or a deleted pet never writes twice or leaves a stray object.
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ignoreConditionFailure } from '../../db/errors.ts';
import { petMediaKey, petPhotoHashKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import type { Labeller } from '../../ports/labeller.ts';
import { PET_MEDIA_LIFECYCLE } from '../media/lifecycle.ts';
import { transition } from '../media/store.ts';
import { deleteMediaObjects, deleteMediaPrefixes, parsePetObjectKey, petObjectKeys } from '../media/objects.ts';
import { asPetMedia, markPetMediaArrived, type PetMediaItem } from './media.ts';
import type { MediaKind } from './pet.ts';
import { readPetMedia } from './store.ts';
import { METRIC, recordMetric } from '../../observability.ts';

type ProcessingDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'log'>;

/** What a kind's processor made of the bytes: fields for the ready record and the objects it wrote, or a reason. */
export type Outcome =
  | { status: 'ready'; fields: Partial<PetMediaItem>; written: string[] }
  | { status: 'rejected'; reason: string };

/**
 * Handles one bucket notification of an original: finds its record (an object without one is left over from a
 * refused or deleted upload and is removed), marks it arrived, runs `derive` once, then records the outcome. Returns
 * the media to label: made ready by this run, or by an earlier one that ended before its labels were written.
 */
export async function processArrivedObject(
  deps: ProcessingDeps,
  key: string,
  kind: Exclude<MediaKind, 'portrait'>,
  derive: (media: PetMediaItem) => Promise<Outcome>,
): Promise<PetMediaItem | undefined> {
  const ref = parsePetObjectKey(key);
  if (!ref || ref.kind !== kind) return undefined;
  const stored = await readPetMedia(deps, ref.petId, ref.mediaId);
  if (!stored || stored.file !== key) {
    await deleteMediaObjects(deps, [key]);
    return undefined;
  }
  const mediaKey = petMediaKey(ref.petId, ref.mediaId);
  const lifecycle = PET_MEDIA_LIFECYCLE[kind];
  await markPetMediaArrived(deps, { pet_id: ref.petId, id: ref.mediaId, kind });
  const media = asPetMedia((await readPetMedia(deps, ref.petId, ref.mediaId)) ?? stored);
  // A redelivery of a run that made the photo ready and failed to label it hands it on to be labelled again.
  if (media.status !== 'pending') return media.status === 'ready' && media.labels === null ? media : undefined;
  const outcome = await derive(media);
  const processedAt = deps.now().toISOString();
  if (outcome.status === 'ready') {
    const moved = await transition(deps, lifecycle, mediaKey, 'pending', 'ready', {
      ...outcome.fields,
      processed_at: processedAt,
    });
    if (!moved) {
      // Deleted (or decided by another worker) meanwhile: what this run wrote must not outlive the record.
      await deleteMediaObjects(deps, outcome.written);
      const again = await readPetMedia(deps, ref.petId, ref.mediaId);
      if (!again) await deleteMediaPrefixes(deps, [petObjectKeys.ofMedia(ref.accountId, ref.petId, ref.mediaId)]);
      return undefined;
    }
    recordMetric(METRIC.uploads, { kind, outcome: 'ready' });
    return { ...media, ...outcome.fields, status: 'ready', processed_at: processedAt };
  }
  await transition(deps, lifecycle, mediaKey, 'pending', 'rejected', {
    reason: outcome.reason,
    processed_at: processedAt,
  });
  // A rejected photo must not make its bytes a "duplicate" of nothing usable: the hash is released.
  if (media.sha256)
    await ignoreConditionFailure(
      deps.ddb.send(
        new DeleteCommand({
          TableName: deps.config.tableName,
          Key: petPhotoHashKey(media.pet_id, media.sha256),
          ConditionExpression: 'media_id = :id',
          ExpressionAttributeValues: { ':id': media.id },
        }),
      ),
    );
  recordMetric(METRIC.uploads, { kind, outcome: 'rejected' });
  deps.log.info('pet media rejected', { mediaId: media.id, kind, reason: outcome.reason });
  return undefined;
}

/** Labels a ready photo once (`image.labels_created`); a repeated run leaves the first labels. */
export async function labelPhoto(deps: ProcessingDeps, media: PetMediaItem, labeller: Labeller): Promise<void> {
  const { labels, source } = await labeller(deps.config.mediaBucket, media.display_key ?? media.file);
  await ignoreConditionFailure(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: petMediaKey(media.pet_id, media.id),
        UpdateExpression: 'SET labels = :labels, label_source = :source',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(labels) OR labels = :null)',
        ExpressionAttributeValues: { ':labels': labels, ':source': source, ':null': null },
      }),
    ),
  );
}
