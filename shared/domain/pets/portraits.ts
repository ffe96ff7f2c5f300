// Portraits: a request records a pending portrait of the pet (kind `portrait`) and queues it; the generator
// (ports/image-generator.ts) draws it over a structural reference (a photo or an earlier portrait), so several
// styles share one pose. Portraits count against no quota and are never fed to photo analysis.
import { sendMessage, sqsClient } from '../../aws/sqs.ts';
import { petMediaKey } from '../../db/keys.ts';
import { transact } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import {
  GenerationRefused,
  type ImageGenerator,
  LOCAL_GENERATOR_NAME,
  PORTRAIT_CONTENT_TYPES,
  type PortraitStyle,
} from '../../ports/image-generator.ts';
import type { Account } from '../accounts/account.ts';
import { transition } from '../media/store.ts';
import { servedObject } from '../../media/served-object.ts';
import { deleteMediaObjects, getMediaObject, petObjectKeys, putMediaObject } from '../media/objects.ts';
import { asPetMedia, newPetMedia, type PetMediaItem, petMediaRow } from './media.ts';
import { petCountWrite } from './photos.ts';
import { photoWaitBudget, settledPhotos } from './photo-wait.ts';
import { NEWEST_MEDIA_WINDOW, queryNewestPetMedia, readPetMedia } from './store.ts';
import { requireOwnPet } from './service.ts';

export const PORTRAIT_STYLE_CATALOGUE: {
  id: PortraitStyle;
  name: string;
  description: string;
  category: string;
  popularity_score: number;
}[] = [
  {
    id: 'studio',
    name: 'Studio',
    description: 'A studio photograph: the pet in focus, background softened, gentle vignette',
    category: 'photographic',
    popularity_score: 90,
  },
  {
    id: 'watercolour',
    name: 'Watercolour',
    description: 'Loose washes in a few colours with darkened edges on textured paper',
    category: 'painting',
    popularity_score: 80,
  },
  {
    id: 'pencil_sketch',
    name: 'Pencil sketch',
    description: 'Graphite outlines and shading on white paper',
    category: 'drawing',
    popularity_score: 70,
  },
];

/** What a portrait records as its generator: the configured Bedrock model, else the local sharp filters. */
export const generatorName = (config: Deps['config']) =>
  config.portraitModelId ? `bedrock:${config.portraitModelId}` : LOCAL_GENERATOR_NAME;

type PortraitDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'sleep' | 'newId' | 'log'>;

/** What a portrait request needs once its reference is ready: one transaction and one queue send, with room to spare. */
const PORTRAIT_NEEDS_MS = 2_000;

/**
 * The structural reference: the given image (a ready photo or portrait of this pet) or the newest ready photo. The
 * given image, or a photo newer than the newest ready one, still processing is waited for within `waitMs`
 * (photo-wait.ts); then the given image still processing is 409 `photos_processing`, as is a pet whose photos all are.
 */
async function reference(
  deps: PortraitDeps,
  petId: string,
  imageId: string | undefined,
  waitMs: number,
): Promise<PetMediaItem> {
  if (imageId) {
    let named: PetMediaItem | undefined;
    const [ready] = await settledPhotos(deps, waitMs, async () => {
      const item = await readPetMedia(deps, petId, imageId);
      named = item && asPetMedia(item);
      if (!named || named.kind === 'video')
        throw badRequest(`image_ids: ${imageId} is not a photo or portrait of this pet`, { code: 'invalid_reference' });
      return { ready: named.status === 'ready' ? [named] : [], processing: named.status === 'pending' };
    });
    if (!ready)
      throw badRequest(`image_ids: ${imageId} is ${named?.status}, not ready`, { code: 'reference_not_ready' });
    return ready;
  }
  let window: PetMediaItem[] = [];
  const [newest] = await settledPhotos(deps, waitMs, async () => {
    window = (await queryNewestPetMedia(deps, petId, 'photo')).map(asPetMedia);
    const newest = window.findIndex((p) => p.status === 'ready');
    const newer = newest === -1 ? window : window.slice(0, newest);
    return { ready: newest === -1 ? [] : [window[newest]!], processing: newer.some((p) => p.status === 'pending') };
  });
  if (!newest)
    throw badRequest(
      window.length > 0
        ? `None of the pet's ${NEWEST_MEDIA_WINDOW} newest photos is usable (rejected, or never uploaded): add a photo, or name a ready one in image_ids`
        : 'The pet has no photos: add one with POST /pets/{petId}/images first',
      { code: 'pet_has_no_photos' },
    );
  return newest;
}

/** POST /pets/{petId}/portrait: a pending portrait record, queued for the generator. */
export async function requestPortrait(
  deps: PortraitDeps,
  account: Account,
  petId: string,
  request: { style: PortraitStyle; image_ids?: string[] | undefined },
  timeLeftMs: number,
): Promise<PetMediaItem> {
  const pet = await requireOwnPet(deps, account, petId);
  const waitMs = photoWaitBudget(timeLeftMs, PORTRAIT_NEEDS_MS);
  const source = await reference(deps, pet.id, request.image_ids?.[0], waitMs);
  const portrait = {
    ...newPetMedia(deps, pet, {
      kind: 'portrait',
      content_type: PORTRAIT_CONTENT_TYPES[request.style],
      bytes: null,
      sha256: null,
      original_filename: null,
      style: request.style,
      source_image_id: source.id,
      generator: generatorName(deps.config),
      objectKey: (id) => petObjectKeys.derived(pet.account_id, pet.id, id, 'portrait'),
    }),
    status: 'pending' as const,
  };
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      { Put: { TableName: table, Item: petMediaRow(portrait), ConditionExpression: 'attribute_not_exists(pk)' } },
      petCountWrite(table, pet, 1, 'portrait_count'),
    ],
    (reasons) => (reasons[1] === 'ConditionalCheckFailed' ? notFound(`Pet ${pet.id} does not exist`) : undefined),
  );
  const queueUrl = deps.config.portraitsQueueUrl;
  try {
    if (!queueUrl) throw new Error('PORTRAITS_QUEUE_URL is not configured');
    await sendMessage(sqsClient(deps.config), queueUrl, { value: { pet_id: pet.id, portrait_id: portrait.id } });
  } catch (error) {
    // Not queued, never drawn: take the record back rather than leave it pending for ever.
    await transact(deps.ddb, [
      { Delete: { TableName: table, Key: petMediaKey(pet.id, portrait.id) } },
      petCountWrite(table, pet, -1, 'portrait_count'),
    ]).catch(() => undefined);
    throw error;
  }
  return portrait;
}

/** Attempts after which a failing portrait is rejected instead of retried (the queue's redrive count). */
export const PORTRAIT_ATTEMPTS = 3;

/**
 * Draws one queued portrait. A refusal, or the last attempt's failure, ends it `rejected` with the reason; earlier
 * failures are thrown so the queue retries them. A portrait deleted meanwhile is skipped (its object removed).
 */
export async function generatePortrait(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'log'>,
  message: { pet_id: string; portrait_id: string },
  generator: ImageGenerator,
  attempt: number,
): Promise<void> {
  const key = petMediaKey(message.pet_id, message.portrait_id);
  const item = await readPetMedia(deps, message.pet_id, message.portrait_id);
  if (!item) return;
  const portrait = asPetMedia(item);
  if (portrait.status !== 'pending') return;
  const reject = (reason: string) =>
    transition(deps, 'portrait', key, 'pending', 'rejected', { reason, processed_at: deps.now().toISOString() });
  try {
    const sourceItem = await readPetMedia(deps, portrait.pet_id, portrait.source_image_id ?? '');
    if (!sourceItem) {
      await reject('the source image was deleted before the portrait was drawn');
      return;
    }
    const source = asPetMedia(sourceItem);
    const object = await getMediaObject(deps, source.display_key ?? source.file);
    const drawn = await generator.generate(await object.Body!.transformToByteArray(), portrait.style as PortraitStyle);
    const extension = drawn.contentType === 'image/png' ? 'png' : 'jpg';
    const file = `${portrait.file}.${extension}`;
    await putMediaObject(deps, file, drawn.bytes, servedObject(`${portrait.id}.${extension}`, drawn.contentType));
    const moved = await transition(deps, 'portrait', key, 'pending', 'ready', {
      file,
      display_key: file,
      content_type: drawn.contentType,
      bytes: drawn.bytes.length,
      width: drawn.width,
      height: drawn.height,
      processed_at: deps.now().toISOString(),
    });
    // Deleted meanwhile: the drawing must not outlive its record.
    if (!moved) await deleteMediaObjects(deps, [file]);
  } catch (error) {
    if (error instanceof GenerationRefused || (error instanceof AppError && !error.retryable)) {
      await reject(error.message);
      return;
    }
    if (attempt >= PORTRAIT_ATTEMPTS) {
      deps.log.error('portrait failed on its last attempt', { portraitId: portrait.id, error });
      await reject('the portrait could not be drawn (the image model failed repeatedly); request it again');
      return;
    }
    throw error;
  }
}
