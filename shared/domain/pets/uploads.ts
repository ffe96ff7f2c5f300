// Videos (direct) and the two-step upload of large photos and videos: a record awaiting its bytes plus a presigned
// PUT URL bound to the declared size and type; the object's arrival completes the upload on the async side.
import { petMediaKey } from '../../db/keys.ts';
import { transact } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, AppError, notFound } from '../../errors.ts';
import { declaredPhotoFormat, detectVideoFormat, VIDEO_FORMATS, type VideoFormat } from '../../media/format.ts';
import type { Account } from '../accounts/account.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  completePartedUpload,
  petObjectKeys,
  putMediaObject,
  startPartedUpload,
  UPLOAD_PART_BYTES,
} from '../media/objects.ts';
import { giveBackPetMedia, removeAwaitingMedia } from './give-back.ts';
import { markPetMediaArrived, newPetMedia, PET_UPLOAD_URL_SECONDS, petMediaRow, type PetMediaItem } from './media.ts';
import type { PetItem } from './pet.ts';
import { quotaUse } from '../accounts/quota.ts';
import { petCountWrite, recordPhotos } from './photos.ts';

/** Spec limits. */
export const MAX_PET_PHOTO_BYTES = 50 * 1024 * 1024;
export const MAX_PET_VIDEO_BYTES = 200 * 1024 * 1024;

export const ACCEPTED_VIDEO_TYPES = Object.values(VIDEO_FORMATS).map((f) => f.mimeType);

const unsupportedVideo = (
  message = 'Videos must be MP4, MOV, WebM, AVI, MPEG or 3GP (judged by the file content, not its name)',
) =>
  new AppError(415, message, {
    code: 'unsupported_format',
    details: { accepted: ACCEPTED_VIDEO_TYPES },
  });

type UploadDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random'>;

function newVideo(deps: UploadDeps, pet: PetItem, format: VideoFormat, size: number, filename: string | null) {
  return newPetMedia(deps, pet, {
    kind: 'video',
    content_type: VIDEO_FORMATS[format].mimeType,
    bytes: size,
    sha256: null,
    original_filename: filename,
    objectKey: (id) => petObjectKeys.video(pet.account_id, pet.id, id, VIDEO_FORMATS[format].extension),
  });
}

/** A video counts one upload against the quota; it is not rate-limited like photos and never deduplicated. */
async function recordVideo(deps: UploadDeps, account: Account, pet: PetItem, media: PetMediaItem): Promise<void> {
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      { Put: { TableName: table, Item: petMediaRow(media), ConditionExpression: 'attribute_not_exists(pk)' } },
      quotaUse(deps, account, 1),
      petCountWrite(table, pet, 1, 'video_count'),
    ],
    (reasons) => {
      if (reasons[1] === 'ConditionalCheckFailed')
        return badRequest(
          `The monthly upload quota of ${account.quota} images is used up; it resets on the 1st (UTC)`,
          {
            code: 'upload_quota_exceeded',
          },
        );
      if (reasons[2] === 'ConditionalCheckFailed') return notFound(`Pet ${pet.id} does not exist`);
      return undefined;
    },
  );
}

/** POST /pets/{petId}/videos: one small video sent directly; larger ones take the two-step upload. */
export async function addPetVideo(
  deps: UploadDeps,
  account: Account,
  pet: PetItem,
  file: { filename: string; bytes: Buffer },
): Promise<PetMediaItem> {
  if (file.bytes.length === 0) throw badRequest('The file is empty', { code: 'invalid_video' });
  const format = detectVideoFormat(file.bytes);
  if (!format) throw unsupportedVideo();
  const media = newVideo(deps, pet, format, file.bytes.length, file.filename || null);
  await recordVideo(deps, account, pet, media);
  await putMediaObject(deps, media.file, file.bytes, { ContentType: media.content_type }).catch(
    async (error: unknown) => {
      await giveBackPetMedia(deps, media, removeAwaitingMedia(deps.config.tableName, media));
      throw error;
    },
  );
  await markPetMediaArrived(deps, { ...media, kind: 'video' });
  return { ...media, status: 'pending' };
}

export type UploadSlotRequest =
  | { kind: 'photo'; content_type: string; size: number; sha256: string; filename?: string | undefined }
  | { kind: 'video'; content_type: string; size: number; filename?: string | undefined };

/**
 * Step one of a large upload. Photos declare their SHA-256, so a duplicate is answered at once (the existing
 * record, no URL) and the limits count the photo now; the processor rejects bytes that do not match the declaration.
 */
export async function createPetUploadSlot(
  deps: UploadDeps,
  account: Account,
  pet: PetItem,
  request: UploadSlotRequest,
) {
  let media: PetMediaItem;
  if (request.kind === 'photo') {
    if (request.size > MAX_PET_PHOTO_BYTES)
      throw badRequest(`size must be at most ${MAX_PET_PHOTO_BYTES} (50 MB) for a photo`);
    const format = declaredPhotoFormat(request.content_type);
    const [added] = await recordPhotos(deps, account, pet, [
      { size: request.size, format, sha256: request.sha256, filename: request.filename ?? null },
    ]);
    if (added!.duplicate) return { media: added!.media, duplicate: true, upload: null };
    media = added!.media;
  } else {
    if (request.size > MAX_PET_VIDEO_BYTES)
      throw badRequest(`size must be at most ${MAX_PET_VIDEO_BYTES} (200 MB) for a video`);
    const format = (Object.keys(VIDEO_FORMATS) as VideoFormat[]).find(
      (f) => VIDEO_FORMATS[f].mimeType === request.content_type,
    );
    if (!format) throw unsupportedVideo(`content_type must be one of ${ACCEPTED_VIDEO_TYPES.join(', ')} for a video`);
    media = newVideo(deps, pet, format, request.size, request.filename ?? null);
    await recordVideo(deps, account, pet, media);
  }
  const { uploadId, parts } = await startPartedUpload(
    deps,
    media.file,
    media.content_type,
    request.size,
    PET_UPLOAD_URL_SECONDS,
  ).catch(async (error: unknown) => {
    await giveBackPetMedia(deps, media, removeAwaitingMedia(deps.config.tableName, media));
    throw error;
  });
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: petMediaKey(pet.id, media.id),
      UpdateExpression: 'SET upload_id = :upload',
      ExpressionAttributeValues: { ':upload': uploadId },
    }),
  );
  return {
    media: { ...media, upload_id: uploadId },
    duplicate: false,
    upload: {
      method: 'PUT' as const,
      part_size: UPLOAD_PART_BYTES,
      parts,
      complete: `POST /v1/pets/${pet.id}/uploads/${media.id}/complete`,
      expires_at: new Date(deps.now().getTime() + PET_UPLOAD_URL_SECONDS * 1000).toISOString(),
    },
  };
}

/**
 * Step two: the client sends each part's ETag; S3 assembles the object, whose notification starts processing.
 * The record moves to pending here (whichever of this call and the processor comes first announces the upload).
 */
export async function completePetUpload(
  deps: UploadDeps,
  media: PetMediaItem,
  parts: { part_number: number; etag: string }[],
): Promise<PetMediaItem> {
  if (media.status !== 'awaiting_upload' || !media.upload_id)
    throw conflict(`Image ${media.id} is not awaiting an upload (status ${media.status})`, { code: 'upload_not_open' });
  const expected = Math.max(1, Math.ceil((media.bytes ?? 0) / UPLOAD_PART_BYTES));
  const numbers = parts.map((p) => p.part_number).sort((a, b) => a - b);
  if (numbers.length !== expected || numbers.some((n, i) => n !== i + 1))
    throw badRequest(`parts must list part_number 1 to ${expected}, each once, with the ETag its PUT returned`);
  try {
    await completePartedUpload(
      deps,
      media.file,
      media.upload_id,
      [...parts].sort((a, b) => a.part_number - b.part_number),
    );
  } catch (error) {
    const name = (error as { name?: string }).name ?? '';
    if (/InvalidPart|NoSuchUpload|EntityTooSmall|InvalidPartOrder/.test(name))
      throw badRequest(`The upload cannot be completed: ${name} (re-send the parts, then complete again)`, {
        code: 'upload_incomplete',
      });
    throw error;
  }
  await markPetMediaArrived(deps, { ...media, kind: media.kind as 'photo' | 'video' });
  return { ...media, status: 'pending' };
}
