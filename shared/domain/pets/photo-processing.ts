// A pet photo's processing: the bytes that arrived must be the ones declared (size, SHA-256), pass the upload routes'
// header check (format, bounded dimensions) and decode; then the EXIF-free display copy and thumbnail are stored and
// the photo is ready.
import { createHash } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { inspectPhotoHeader } from '../../media/photo-header.ts';
import type { Labeller } from '../../ports/labeller.ts';
import { derivePhoto, UndecodablePhoto } from '../../media/photo-derivatives.ts';
import { servedObject } from '../../media/served-object.ts';
import { getMediaObject, petObjectKeys, putMediaObject } from '../media/objects.ts';
import type { PetMediaItem } from './media.ts';
import { labelPhoto, type Outcome, processArrivedObject } from './processing.ts';
import { MAX_PET_PHOTO_BYTES } from './uploads.ts';

type ProcessingDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'log'>;

export async function processPetPhoto(deps: ProcessingDeps, key: string, labeller: Labeller): Promise<void> {
  const ready = await processArrivedObject(deps, key, 'photo', (media) => derive(deps, media));
  if (ready) await labelPhoto(deps, ready, labeller);
}

async function derive(deps: ProcessingDeps, media: PetMediaItem): Promise<Outcome> {
  const object = await getMediaObject(deps, media.file);
  if ((object.ContentLength ?? 0) > MAX_PET_PHOTO_BYTES) {
    await object.Body?.transformToByteArray().catch(() => undefined);
    return { status: 'rejected', reason: `larger than the ${MAX_PET_PHOTO_BYTES / 1024 / 1024} MB photo limit` };
  }
  const bytes = await object.Body!.transformToByteArray();
  if (media.bytes !== null && bytes.length !== media.bytes)
    return { status: 'rejected', reason: `${bytes.length} bytes arrived, ${media.bytes} were declared` };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (media.sha256 && sha256 !== media.sha256)
    return { status: 'rejected', reason: 'the bytes that arrived do not match the declared sha256' };
  try {
    inspectPhotoHeader(bytes);
    const photo = await derivePhoto(bytes);
    const display = petObjectKeys.derived(media.account_id, media.pet_id, media.id, 'display.jpg');
    const thumbnail = petObjectKeys.derived(media.account_id, media.pet_id, media.id, 'thumbnail.jpg');
    await Promise.all([
      putMediaObject(deps, display, photo.display, servedObject(`${media.id}.jpg`, 'image/jpeg')),
      putMediaObject(deps, thumbnail, photo.thumbnail, servedObject(`${media.id}-thumbnail.jpg`, 'image/jpeg')),
    ]);
    return {
      status: 'ready',
      fields: { width: photo.width, height: photo.height, display_key: display, thumbnail_key: thumbnail },
      written: [display, thumbnail],
    };
  } catch (error) {
    // A photo problem (a refusal of the header check, or a file sharp cannot decode) is the verdict, not a failure.
    if (error instanceof UndecodablePhoto || (error instanceof AppError && !error.retryable))
      return { status: 'rejected', reason: error.message };
    throw error;
  }
}
