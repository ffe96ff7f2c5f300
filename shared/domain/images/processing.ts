// An uploaded object has arrived (S3 notification): validate the photo, write the copy the service serves (upright,
// re-encoded without EXIF, XMP or IPTC: no GPS position, no camera serial), approve or reject it, label the copy.
// The original is deleted once judged: no URL ever points at it. Every step is a lifecycle transition or a
// conditional update, so a notification delivered twice changes nothing twice.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { s3Client } from '../../aws/s3.ts';
import { whenConditionFails } from '../../db/errors.ts';
import { imageKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { PHOTO_FORMATS, type PhotoFormat } from '../../media/format.ts';
import { type CleanPhoto, cleanPhoto, UndecodablePhoto } from '../../media/photo-derivatives.ts';
import { inspectPhotoHeader } from '../../media/photo-header.ts';
import { servedPhoto } from '../../media/served-object.ts';
import type { Labeller, LabelResult } from '../../ports/labeller.ts';
import { transition } from '../media/store.ts';
import { asUpload, MAX_PHOTO_BYTES, markArrived, servedPhotoKey, uploadedObjectKey } from './uploads.ts';
import { METRIC, recordMetric } from '../../observability.ts';

const UPLOAD_KEY = /^uploads\/[^/]+\/([^/.]+)\.[a-z]+$/;
/** Statuses in which an upload still waits for its verdict. */
const UNDECIDED = new Set(['awaiting_upload', 'pending']);

export type ProcessingDeps = Pick<Deps, 'ddb' | 'config' | 'log'>;

export type Verdict = { status: 'approved'; photo: CleanPhoto } | { status: 'rejected'; reason: string };

export async function processUploadedObject(
  deps: ProcessingDeps,
  labeller: Labeller,
  bucket: string,
  key: string,
): Promise<void> {
  const id = UPLOAD_KEY.exec(key)?.[1];
  if (!id) return;
  const table = deps.config.tableName;
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: table, Key: imageKey(id), ConsistentRead: true }));
  const s3 = s3Client(deps.config);
  const removeOriginal = () => s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  const upload = Item?.source === 'upload' ? asUpload(Item) : undefined;
  if (!upload || uploadedObjectKey(upload) !== key || !UNDECIDED.has(upload.status)) {
    // Every upload is recorded before its object is written, so an object without a record is left over from a
    // refused or deleted upload; one of a decided upload is a duplicate notification's (its original is not kept).
    await removeOriginal();
    // Or the redelivery of a run that approved the photo and failed to label it: the copy is kept, so label it now.
    if (upload?.status === 'approved' && upload.labels === null && uploadedObjectKey(upload) === key)
      await writeLabels(deps, id, await labeller(bucket, upload.file));
    return;
  }
  await markArrived(deps, id);
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const bytes = await object.Body!.transformToByteArray();
  // Served in the format it was recorded as (the declared type of a two-step upload), at the key every URL names.
  const format = (Object.keys(PHOTO_FORMATS) as PhotoFormat[]).find(
    (f) => PHOTO_FORMATS[f].mimeType === upload.mime_type,
  )!;
  const served = servedPhotoKey(upload.account_id, id, format);
  const verdict = await judge(bytes, upload.size, format);
  if (verdict.status === 'approved')
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: served,
        Body: verdict.photo.bytes,
        ...servedPhoto(id, format),
      }),
    );
  const fields =
    verdict.status === 'approved'
      ? { width: verdict.photo.width, height: verdict.photo.height, file: served, upload_file: key }
      : { rejection_reason: verdict.reason, file: served, upload_file: key };
  const decided = await transition(deps, 'photo', imageKey(id), 'pending', verdict.status, fields);
  if (!decided) {
    // Another delivery decided it (and wrote the same copy), or the image was deleted meanwhile: then nothing of it
    // may stay behind.
    const current = await deps.ddb.send(new GetCommand({ TableName: table, Key: imageKey(id), ConsistentRead: true }));
    if (!current.Item) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: served }));
      await removeOriginal();
    }
    return;
  }
  recordMetric(METRIC.uploads, { kind: 'upload', outcome: verdict.status });
  await removeOriginal();
  if (verdict.status !== 'approved') return;
  await writeLabels(deps, id, await labeller(bucket, served));
}

/**
 * Labels an image once: a second delivery's labels do not replace the first's, and an image deleted while it was
 * being labelled stays deleted (without the key's existence in the condition, the update would create a ghost item).
 */
export async function writeLabels(
  deps: ProcessingDeps,
  imageId: string,
  { labels, source }: LabelResult,
): Promise<void> {
  await whenConditionFails(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: imageKey(imageId),
        UpdateExpression: 'SET labels = :labels, label_source = :source',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(labels) OR labels = :null)',
        ExpressionAttributeValues: { ':labels': labels, ':source': source, ':null': null },
      }),
    ),
    () => undefined,
  );
}

/**
 * The verdict on the bytes that arrived: a photo problem (a permanent AppError of inspectPhotoHeader, or a file that does
 * not decode cleanly) rejects it; an approved photo comes with its clean copy in `format`.
 */
export async function judge(bytes: Uint8Array, declaredSize: number | null, format: PhotoFormat): Promise<Verdict> {
  if (bytes.length > MAX_PHOTO_BYTES)
    return { status: 'rejected', reason: `larger than the ${MAX_PHOTO_BYTES / 1024 / 1024} MB photo limit` };
  if (declaredSize !== null && bytes.length !== declaredSize)
    return { status: 'rejected', reason: `${bytes.length} bytes arrived, ${declaredSize} were declared` };
  try {
    inspectPhotoHeader(bytes);
    return { status: 'approved', photo: await cleanPhoto(bytes, format) };
  } catch (error) {
    if (error instanceof AppError && !error.retryable) return { status: 'rejected', reason: error.message };
    if (error instanceof UndecodablePhoto) return { status: 'rejected', reason: error.message };
    throw error;
  }
}
