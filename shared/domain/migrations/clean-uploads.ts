// Migration `clean-uploads`: uploads stored before clean copies (items of source `upload` whose `file` is the original
// under uploads/) are brought to the shape the upload processor (domain/images/processing.ts) writes today:
//
// - approved: the clean copy (`cleanPhoto`: upright, re-encoded, no EXIF/XMP/IPTC) is written to its images/ key
//   first; the image's requests that named the original are pointed at the copy; then one transaction sets the item's
//   `file` to the copy, `upload_file` to the original and `width`/`height` to the copy's and, when the image is public,
//   rewrites `public.summary` and the summary each index segment of `public.placement` holds for it; only after that
//   commits is the original deleted;
// - rejected: nothing is served, so no copy is made: the item names the copy key and the original (as the processor
//   records a rejection) and the original is deleted;
// - awaiting_upload / pending: left to the upload processor, which reads the original's key from `file` on these
//   items (`uploadedObjectKey`) and writes the new shape when it decides.
//
// Each write is conditioned on the `file` (and status) read, so a crash anywhere leaves either the old shape (found
// and done again by the next run: the copy is rewritten with the same content) or the new one with the original still
// to delete (`original_to_delete`, found again and finished), or the new one done (not found again).
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { s3Client } from '../../aws/s3.ts';
import { ignoreConditionFailure, transactionFailures, whenConditionFails } from '../../db/errors.ts';
import { imageKey, imagePartition, PUBLIC_REQUEST_PREFIX, publicSegmentKey } from '../../db/keys.ts';
import { queryAll } from '../../db/query-all.ts';
import { scanPages } from '../../db/scan-pages.ts';
import type { TransactItem } from '../../db/transact.ts';
import { PHOTO_FORMATS, type PhotoFormat } from '../../media/format.ts';
import { cleanPhoto } from '../../media/photo-derivatives.ts';
import { servedPhoto } from '../../media/served-object.ts';
import { asUpload, MAX_PHOTO_BYTES, servedPhotoKey, UPLOADS_PREFIX, type UploadItem } from '../images/uploads.ts';
import {
  CHANGED_MEANWHILE,
  type ItemOutcome,
  type MigrationDeps,
  type MigrationOptions,
  type MigrationReport,
  runMigration,
  SCAN_PAGE_ITEMS,
} from './migration.ts';

const publicRecord = z.object({ placement: z.record(z.string(), z.number()) });
/**
 * Set by the commit that stops an item naming its original, removed once the original is deleted: an item that still
 * has it after a crash between the two is found by the next run, which deletes the original then.
 */
const originalToDelete = z.optional(z.string());

interface OldUpload {
  upload: UploadItem;
  originalToDelete: string | undefined;
  /** Where the public image's summary sits in the index (facet → segment); undefined when not public. */
  placement: Record<string, number> | undefined;
}

/** Brings every upload stored before clean copies to today's shape; with `dryRun`, only counts what it would do. */
export function cleanOldUploads(deps: MigrationDeps, options: MigrationOptions): Promise<MigrationReport> {
  return runMigration({
    migration: 'clean-uploads',
    ...options,
    pages: scanPages(deps.ddb, {
      TableName: deps.config.tableName,
      FilterExpression:
        '#type = :type AND #source = :upload AND (begins_with(#file, :uploads) OR attribute_exists(original_to_delete))',
      ExpressionAttributeNames: { '#type': 'type', '#source': 'source', '#file': 'file' },
      ExpressionAttributeValues: { ':type': 'Image', ':upload': 'upload', ':uploads': UPLOADS_PREFIX },
      Limit: SCAN_PAGE_ITEMS,
    }),
    parse: (raw) => ({
      upload: asUpload(raw),
      originalToDelete: originalToDelete.parse(raw.original_to_delete),
      placement: raw.public === undefined || raw.public === null ? undefined : publicRecord.parse(raw.public).placement,
    }),
    label: (raw) => `image ${raw.id ?? raw.pk}`,
    migrate: (old) => migrateUpload(deps, old, options.dryRun),
  });
}

async function migrateUpload(deps: MigrationDeps, old: OldUpload, dryRun: boolean): Promise<ItemOutcome> {
  const { status, file } = old.upload;
  if (!file.startsWith(UPLOADS_PREFIX)) {
    // Committed by a run that stopped before deleting the original.
    if (!dryRun) await deleteOriginal(deps, old.upload.id, old.originalToDelete!);
    return { outcome: 'interrupted_original_deleted', changed: true };
  }
  if (status === 'awaiting_upload' || status === 'pending') return { outcome: 'left_to_processor', changed: false };
  const outcome = status === 'rejected' ? 'rejected_original_deleted' : old.placement ? 'public_cleaned' : 'cleaned';
  if (dryRun) return { outcome, changed: true };
  const committed = status === 'rejected' ? await recordRejected(deps, old.upload) : await cleanApproved(deps, old);
  if (!committed) return CHANGED_MEANWHILE;
  await deleteOriginal(deps, old.upload.id, file);
  return { outcome, changed: true };
}

/** Deletes the original, then the item's note that it is still to be deleted. */
async function deleteOriginal(deps: MigrationDeps, imageId: string, original: string): Promise<void> {
  await s3Client(deps.config).send(new DeleteObjectCommand({ Bucket: deps.config.mediaBucket, Key: original }));
  await ignoreConditionFailure(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: imageKey(imageId),
        UpdateExpression: 'REMOVE original_to_delete',
        ConditionExpression: 'original_to_delete = :original',
        ExpressionAttributeValues: { ':original': original },
      }),
    ),
  );
}

/** The upload's format: the recorded media type, else the original's extension. */
function formatOf(upload: UploadItem): PhotoFormat {
  const formats = Object.keys(PHOTO_FORMATS) as PhotoFormat[];
  const format =
    formats.find((f) => PHOTO_FORMATS[f].mimeType === upload.mime_type) ??
    formats.find((f) => upload.file.endsWith(PHOTO_FORMATS[f].extension));
  if (!format) throw new Error(`unknown photo format (mime_type ${upload.mime_type}, file ${upload.file})`);
  return format;
}

/** The item as the processor records a rejection: the copy's key (never written) and the original's. */
async function recordRejected(deps: MigrationDeps, upload: UploadItem): Promise<boolean> {
  const update = new UpdateCommand({
    TableName: deps.config.tableName,
    Key: imageKey(upload.id),
    UpdateExpression: 'SET #file = :served, upload_file = :original, original_to_delete = :original',
    ConditionExpression: '#file = :original AND #status = :rejected',
    ExpressionAttributeNames: { '#file': 'file', '#status': 'status' },
    ExpressionAttributeValues: {
      ':served': servedPhotoKey(upload.account_id, upload.id, formatOf(upload)),
      ':original': upload.file,
      ':rejected': 'rejected',
    },
  });
  return (await whenConditionFails(deps.ddb.send(update), () => false)) !== false;
}

async function cleanApproved(deps: MigrationDeps, { upload, placement }: OldUpload): Promise<boolean> {
  const { tableName: table, mediaBucket: bucket } = deps.config;
  const s3 = s3Client(deps.config);
  const original = upload.file;
  const format = formatOf(upload);
  const served = servedPhotoKey(upload.account_id, upload.id, format);
  const photo = await cleanPhoto(await readObject(deps, original), format);
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: served,
      Body: photo.bytes,
      ...servedPhoto(upload.id, format),
    }),
  );
  await repointRequests(deps, upload.id, original, served);
  const size = { ':served': served, ':original': original, ':width': photo.width, ':height': photo.height };
  const segmentWrites = Object.entries(placement ?? {}).map(
    ([facet, segment]): TransactItem => ({
      Update: {
        TableName: table,
        Key: publicSegmentKey(facet, segment),
        UpdateExpression: 'SET images.#id.#file = :served, images.#id.width = :width, images.#id.height = :height',
        ConditionExpression: 'images.#id.#file = :original',
        ExpressionAttributeNames: { '#id': upload.id, '#file': 'file' },
        ExpressionAttributeValues: size,
      },
    }),
  );
  const summaryChange = placement
    ? ', #public.summary.#file = :served, #public.summary.width = :width, #public.summary.height = :height'
    : '';
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: imageKey(upload.id),
              UpdateExpression: `SET #file = :served, upload_file = :original, original_to_delete = :original, width = :width, height = :height${summaryChange}`,
              ConditionExpression: `#file = :original AND #status = :approved AND ${placement ? '#public.summary.#file = :original' : 'attribute_not_exists(#public)'}`,
              ExpressionAttributeNames: { '#file': 'file', '#status': 'status', '#public': 'public' },
              ExpressionAttributeValues: { ...size, ':approved': 'approved' },
            },
          },
          ...segmentWrites,
        ],
      }),
    );
    return true;
  } catch (error) {
    const reasons = transactionFailures(error);
    if (reasons[0] !== 'ConditionalCheckFailed') {
      const facet = Object.keys(placement ?? {})[reasons.slice(1).indexOf('ConditionalCheckFailed')];
      if (facet !== undefined) throw new Error(`the index segment of facet ${facet} does not hold it as ${original}`);
      throw error;
    }
    // Changed meanwhile. If it was deleted (the deletion removed the original), the copy written above must go too.
    const { Item } = await deps.ddb.send(
      new GetCommand({ TableName: table, Key: imageKey(upload.id), ConsistentRead: true }),
    );
    if (!Item) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: served }));
    return false;
  }
}

async function readObject(deps: MigrationDeps, key: string): Promise<Uint8Array> {
  try {
    const object = await s3Client(deps.config).send(
      new GetObjectCommand({ Bucket: deps.config.mediaBucket, Key: key }),
    );
    // Bounded before it is read: no upload was ever allowed more (what was stored larger is reported, not decoded).
    if ((object.ContentLength ?? 0) > MAX_PHOTO_BYTES) {
      (object.Body as Readable | undefined)?.destroy?.(); // the connection is not read to the end
      throw new Error(`the original ${key} is larger than the ${MAX_PHOTO_BYTES / 1024 / 1024} MB photo limit`);
    }
    return await object.Body!.transformToByteArray();
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') throw new Error(`the original ${key} is missing`);
    throw error;
  }
}

/**
 * The image's public requests name the object they were made for (their `image_url`): those naming the original
 * name the copy instead. Done before the item commits, so a crash between them leaves the item found by the next run.
 */
async function repointRequests(deps: MigrationDeps, imageId: string, original: string, served: string) {
  const requests = await queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :requests)',
    FilterExpression: '#file = :original',
    ProjectionExpression: 'pk, sk',
    ExpressionAttributeNames: { '#file': 'file' },
    ExpressionAttributeValues: {
      ':pk': imagePartition(imageId),
      ':requests': PUBLIC_REQUEST_PREFIX,
      ':original': original,
    },
  });
  for (const request of requests)
    await whenConditionFails(
      deps.ddb.send(
        new UpdateCommand({
          TableName: deps.config.tableName,
          Key: { pk: request.pk, sk: request.sk },
          UpdateExpression: 'SET #file = :served',
          ConditionExpression: '#file = :original',
          ExpressionAttributeNames: { '#file': 'file' },
          ExpressionAttributeValues: { ':served': served, ':original': original },
        }),
      ),
      () => undefined,
    );
}
