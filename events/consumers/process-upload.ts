// S3 "object created" notifications (via the uploads queue) → validate the photo, approve or reject it, label it.
// Every step is a conditional update, so a notification delivered twice changes nothing twice.
import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { s3Client } from '../../shared/aws/s3.ts';
import { isConditionFailure } from '../../shared/db/errors.ts';
import { imageKey } from '../../shared/db/keys.ts';
import { getDeps, type Deps } from '../../shared/deps.ts';
import { inspectPhoto, markArrived, MAX_PHOTO_BYTES } from '../../shared/domain/images/uploads.ts';
import { AppError } from '../../shared/errors.ts';
import { PHOTO_FORMATS } from '../../shared/media/format.ts';
import { labellerFor } from '../../shared/media/labels.ts';

const UPLOAD_KEY = /^uploads\/[^/]+\/([^/.]+)\.[a-z]+$/;

interface S3Notification {
  Records?: { eventName?: string; s3: { bucket: { name: string }; object: { key: string; size?: number } } }[];
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = getDeps();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records) {
    try {
      const notification = JSON.parse(message.body) as S3Notification;
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        await processObject(deps, record.s3.bucket.name, decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')));
      }
    } catch (error) {
      deps.log.error('processing an upload failed; SQS will retry it', { messageId: message.messageId, error });
      batchItemFailures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures };
}

async function processObject(deps: Deps, bucket: string, key: string): Promise<void> {
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
  const decided = await setOnce(deps, id, 'pending', verdict);
  if (!decided || verdict.status !== 'approved') return;
  const { labels, source } = await labellerFor(deps.config)(bucket, key);
  await deps.ddb
    .send(
      new UpdateCommand({
        TableName: table,
        Key: imageKey(id),
        UpdateExpression: 'SET labels = :labels, label_source = :source',
        ConditionExpression: 'attribute_not_exists(labels) OR labels = :null',
        ExpressionAttributeValues: { ':labels': labels, ':source': source, ':null': null },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

type Verdict =
  | { status: 'approved'; width: number; height: number; mime_type: string }
  | { status: 'rejected'; reason: string };

function judge(bytes: Uint8Array, declaredSize: number | null): Verdict {
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
    if (error instanceof AppError) return { status: 'rejected', reason: error.message };
    throw error;
  }
}

/** Moves the image from `from` to the verdict's status exactly once; false when another worker got there first. */
async function setOnce(deps: Deps, id: string, from: string, verdict: Verdict): Promise<boolean> {
  const fields =
    verdict.status === 'approved'
      ? { status: 'approved', width: verdict.width, height: verdict.height, mime_type: verdict.mime_type }
      : { status: 'rejected', rejection_reason: verdict.reason };
  const entries = Object.entries(fields);
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: imageKey(id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: '#f0 = :from',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])), ':from': from },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
