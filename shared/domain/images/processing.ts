// An uploaded object has arrived (S3 notification): validate the photo, approve or reject it, label it. Every step
// is a lifecycle transition or a conditional update, so a notification delivered twice changes nothing twice.
import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { s3Client } from '../../aws/s3.ts';
import { whenConditionFails } from '../../db/errors.ts';
import { imageKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { PHOTO_FORMATS } from '../../media/format.ts';
import type { Labeller } from '../../ports/labeller.ts';
import { transition } from '../media/store.ts';
import { inspectPhoto, MAX_PHOTO_BYTES, markArrived } from './uploads.ts';
import { METRIC, recordMetric } from '../../observability.ts';

const UPLOAD_KEY = /^uploads\/[^/]+\/([^/.]+)\.[a-z]+$/;

export type ProcessingDeps = Pick<Deps, 'ddb' | 'config' | 'log'>;

export type Verdict =
  | { status: 'approved'; width: number; height: number; mime_type: string }
  | { status: 'rejected'; reason: string };

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
  if (!Item || Item.file !== key) {
    // Every upload is recorded before its object is written, so an object without a record is left over from a
    // refused or deleted upload.
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    return;
  }
  await markArrived(deps, id);
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const bytes = await object.Body!.transformToByteArray();
  const verdict = judge(bytes, Item.size as number | null);
  const fields =
    verdict.status === 'approved'
      ? { width: verdict.width, height: verdict.height, mime_type: verdict.mime_type }
      : { rejection_reason: verdict.reason };
  const decided = await transition(deps, 'photo', imageKey(id), 'pending', verdict.status, fields);
  if (decided) recordMetric(METRIC.uploads, { kind: 'upload', outcome: verdict.status });
  if (!decided || verdict.status !== 'approved') return;
  const { labels, source } = await labeller(bucket, key);
  await whenConditionFails(
    deps.ddb.send(
      new UpdateCommand({
        TableName: table,
        Key: imageKey(id),
        UpdateExpression: 'SET labels = :labels, label_source = :source',
        ConditionExpression: 'attribute_not_exists(labels) OR labels = :null',
        ExpressionAttributeValues: { ':labels': labels, ':source': source, ':null': null },
      }),
    ),
    () => undefined,
  );
}

/** The verdict on the bytes that arrived: a photo problem (a permanent AppError of inspectPhoto) rejects it. */
export function judge(bytes: Uint8Array, declaredSize: number | null): Verdict {
  if (bytes.length > MAX_PHOTO_BYTES)
    return { status: 'rejected', reason: `larger than the ${MAX_PHOTO_BYTES / 1024 / 1024} MB photo limit` };
  if (declaredSize !== null && bytes.length !== declaredSize)
    return { status: 'rejected', reason: `${bytes.length} bytes arrived, ${declaredSize} were declared` };
  try {
    const photo = inspectPhoto(bytes);
    return {
      status: 'approved',
      width: photo.width,
      height: photo.height,
      mime_type: PHOTO_FORMATS[photo.format].mimeType,
    };
  } catch (error) {
    if (error instanceof AppError && !error.retryable) return { status: 'rejected', reason: error.message };
    throw error;
  }
}
