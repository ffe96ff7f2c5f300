import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { s3Client } from '../../aws/s3.ts';
import { pageAccountItems, subIdFilter } from '../../db/account-items.ts';
import { transactionFailures } from '../../db/errors.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import { transact } from '../../db/transact.ts';
import { statChange } from '../../db/account-stats.ts';
import {
  accountImageIndex,
  accountImagesPartition,
  imageKey,
  imagePartition,
  PUBLIC_REQUEST_ITEMS_PREFIX,
  pendingPublicRequestKey,
} from '../../db/keys.ts';
import { queryAll } from '../../db/query-all.ts';
import { batchWriteAll } from '../../db/batch.ts';
import type { Deps } from '../../deps.ts';
import type { Order } from '../../schema/paging.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { declaredPhotoFormat, PHOTO_FORMATS, type PhotoFormat } from '../../media/format.ts';
import { inspectPhotoHeader } from '../../media/photo-header.ts';
import type { Account } from '../accounts/account.ts';
import { SPECIES } from '../reference/species.ts';
import { provenanceOf } from './present.ts';
import { quotaReturn, quotaUse } from '../accounts/quota.ts';
import { transition } from '../media/store.ts';
import { publicMediaUrl } from '../../media/public-url.ts';
import type { Placement } from './public-index.ts';
import { unpublishWrites } from './publishing.ts';

/** The spec's photo limit. */
export const MAX_PHOTO_BYTES = 50 * 1024 * 1024;
/**
 * What fits through API Gateway (10 MB) and Lambda (6 MB request, base64-encoded: ~4.4 MB of file) with room for the
 * multipart envelope. Larger photos use the two-step upload (docs/decisions.md#image-uploads).
 */
export const DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Breeds one uploaded photo may be tagged with. */
export const MAX_IMAGE_BREEDS = 10;
/** How long a presigned upload URL stays valid. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/**
 * An upload still awaiting its object this long after it was recorded is abandoned (the URL expired long ago, or the
 * function died between commit and put): DynamoDB's TTL removes it and events/media/expire-uploads.ts gives its
 * quota and image count back.
 */
export const ABANDONED_UPLOAD_SECONDS = UPLOAD_URL_SECONDS + 60 * 60;

export const IMAGE_STATUSES = ['awaiting_upload', 'pending', 'approved', 'rejected'] as const;

const uploadSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  /** What the service serves: the clean copy (SERVED_UPLOADS_PREFIX), written when the photo is approved. */
  file: z.string(),
  /** The object as uploaded (UPLOADS_PREFIX), deleted once judged; null on uploads recorded before clean copies. */
  upload_file: z._default(z.nullable(z.string()), null),
  source: z.literal('upload'),
  status: z.enum(IMAGE_STATUSES),
  sub_id: z.nullable(z.string()),
  breed_ids: z.array(z.string()),
  original_filename: z.nullable(z.string()),
  mime_type: z.nullable(z.string()),
  size: z.nullable(z.number()),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
  rejection_reason: z._default(z.nullable(z.string()), null),
  labels: z._default(z.nullable(z.array(z.object({ name: z.string(), confidence: z.number() }))), null),
  label_source: z._default(z.nullable(z.string()), null),
  created_at: z.string(),
});
export type UploadItem = z.infer<typeof uploadSchema>;

type UploadDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random'>;

export function presentUpload(item: UploadItem, mediaBaseUrl: string) {
  return {
    id: item.id,
    url: publicMediaUrl(mediaBaseUrl, item.file),
    status: item.status,
    sub_id: item.sub_id,
    breed_ids: item.breed_ids,
    original_filename: item.original_filename,
    mime_type: item.mime_type,
    size: item.size,
    width: item.width,
    height: item.height,
    ...(item.rejection_reason && { rejection_reason: item.rejection_reason }),
    labels: item.labels,
    label_source: item.label_source,
    created_at: item.created_at,
  };
}

/**
 * Where uploaded photos arrive; the bucket announces objects created here to the uploads queue. Originals are never
 * served (the CDN is denied the prefix) and are deleted once processed.
 */
export const UPLOADS_PREFIX = 'uploads/';
/** Where the clean copies of uploaded photos live: upright, without metadata, what every URL of an upload points at. */
export const SERVED_UPLOADS_PREFIX = 'images/';

const keyOf = (prefix: string, accountId: string, imageId: string, format: PhotoFormat) =>
  `${prefix}${accountId}/${imageId}${PHOTO_FORMATS[format].extension}`;

/** The key of an upload's clean copy (in the format it was declared or detected as when recorded). */
export const servedPhotoKey = (accountId: string, imageId: string, format: PhotoFormat) =>
  keyOf(SERVED_UPLOADS_PREFIX, accountId, imageId, format);

/** The key the upload's bytes arrive at: recorded on the item, or (uploads recorded before clean copies) its file. */
export const uploadedObjectKey = (item: Pick<UploadItem, 'file' | 'upload_file'>) => item.upload_file ?? item.file;

/** A new upload record, awaiting its object; the file name is the client's, the key never is. */
function newUpload(
  deps: UploadDeps,
  account: Account,
  format: PhotoFormat,
  known: { size: number; filename: string | null; width: number | null; height: number | null },
  fields: UploadFields,
): UploadItem {
  const id = deps.newId();
  return {
    id,
    account_id: account.id,
    file: servedPhotoKey(account.id, id, format),
    upload_file: keyOf(UPLOADS_PREFIX, account.id, id, format),
    source: 'upload',
    status: 'awaiting_upload',
    sub_id: fields.sub_id ?? null,
    breed_ids: fields.breed_ids ?? [],
    original_filename: known.filename,
    mime_type: PHOTO_FORMATS[format].mimeType,
    size: known.size,
    width: known.width,
    height: known.height,
    rejection_reason: null,
    labels: null,
    label_source: null,
    created_at: deps.now().toISOString(),
  };
}

export interface UploadFields {
  sub_id?: string | undefined;
  breed_ids?: string[] | undefined;
}

/**
 * Counts the upload against this month's quota, writes the image item and the account's image count, all in one
 * transaction: under any concurrency no upload passes the quota and none is lost from the count.
 */
async function recordUpload(deps: UploadDeps, account: Account, item: UploadItem): Promise<void> {
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      quotaUse(deps, account, 1),
      {
        Put: {
          TableName: table,
          Item: {
            ...imageKey(item.id),
            ...accountImageIndex(account.id, item.id),
            type: 'Image',
            ...item,
            [TTL_ATTRIBUTE]: Math.floor(deps.now().getTime() / 1000) + ABANDONED_UPLOAD_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      statChange(table, account.id, 'images', 1),
    ],
    (reasons) =>
      reasons[0] === 'ConditionalCheckFailed'
        ? badRequest(`The monthly upload quota of ${account.quota} images is used up; it resets on the 1st (UTC)`, {
            code: 'upload_quota_exceeded',
          })
        : undefined,
  );
}

/**
 * The direct upload: validated here, then counted and recorded (awaiting its object), then stored in S3 and marked
 * pending. If S3 fails the record is removed again, before any event could announce it; status and labels follow
 * from the stored object (domain/images/processing.ts).
 */
export async function uploadPhoto(
  deps: UploadDeps,
  account: Account,
  file: { filename: string; bytes: Buffer },
  fields: UploadFields,
): Promise<UploadItem> {
  const { format, width, height } = inspectPhotoHeader(file.bytes);
  const item = newUpload(
    deps,
    account,
    format,
    { size: file.bytes.length, filename: file.filename || null, width, height },
    fields,
  );
  await recordUpload(deps, account, item);
  try {
    await s3Client(deps.config).send(
      new PutObjectCommand({
        Bucket: deps.config.mediaBucket,
        Key: uploadedObjectKey(item),
        Body: file.bytes,
        ContentType: item.mime_type!,
      }),
    );
  } catch (error) {
    await abandonUpload(deps, item);
    throw error;
  }
  await markArrived(deps, item.id);
  return { ...item, status: 'pending' };
}

/**
 * Takes back an upload whose object never arrived, exactly: one transaction deletes the record (only while it still
 * awaits its object) and returns the quota and the image count it took. Nothing happens if the object arrived.
 */
export async function abandonUpload(deps: Pick<Deps, 'ddb' | 'config'>, item: UploadItem): Promise<void> {
  const table = deps.config.tableName;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: table,
              Key: imageKey(item.id),
              ConditionExpression: '#status = :awaiting',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':awaiting': 'awaiting_upload' },
            },
          },
          ...uploadCountsReturned(table, item),
        ],
      }),
    );
  } catch (error) {
    // The record no longer awaits its object (it arrived meanwhile, or it is gone): nothing to take back.
    if (transactionFailures(error)[0] !== 'ConditionalCheckFailed') throw error;
  }
}

/** The two updates that give back what recording `item` took: its month's quota use and the account's image count. */
export function uploadCountsReturned(table: string, item: Pick<UploadItem, 'account_id' | 'created_at'>) {
  return [quotaReturn(table, item.account_id, item.created_at), statChange(table, item.account_id, 'images', -1)];
}

/** awaiting_upload → pending, once: whoever sees the object first (this route or the processor) announces it. */
export const markArrived = (deps: Pick<Deps, 'ddb' | 'config'>, imageId: string): Promise<boolean> =>
  // The object is here: no longer an abandoned upload in waiting (TTL only acts on a number).
  transition(deps, 'photo', imageKey(imageId), 'awaiting_upload', 'pending', { [TTL_ATTRIBUTE]: null });

/**
 * The two-step upload: reserves quota and an image id, and answers a presigned PUT URL bound to the declared size
 * and type. The object's arrival in S3 completes the upload (domain/images/processing.ts).
 */
export async function createUploadSlot(
  deps: UploadDeps,
  account: Account,
  request: { content_type: string; size: number; filename?: string | undefined } & UploadFields,
) {
  const format = declaredPhotoFormat(request.content_type);
  const item = newUpload(
    deps,
    account,
    format,
    { size: request.size, filename: request.filename ?? null, width: null, height: null },
    request,
  );
  await recordUpload(deps, account, item);
  const url = await getSignedUrl(
    s3Client(deps.config),
    new PutObjectCommand({
      Bucket: deps.config.mediaBucket,
      Key: uploadedObjectKey(item),
      ContentType: request.content_type,
      ContentLength: request.size,
    }),
    { expiresIn: UPLOAD_URL_SECONDS, signableHeaders: new Set(['content-type', 'content-length']) },
  );
  return {
    upload: item,
    method: 'PUT' as const,
    url,
    headers: { 'content-type': request.content_type, 'content-length': String(request.size) },
    expires_at: new Date(deps.now().getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
  };
}

/** The stored image item (catalogue image, import or upload), whoever it belongs to. */
export async function readImageItem(
  deps: Pick<Deps, 'ddb' | 'config'>,
  imageId: string,
  consistent = false,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: imageKey(imageId), ConsistentRead: consistent }),
  );
  return Item;
}

/** Any image by id: catalogue and public images for everyone, other uploads for their account only (403). */
export async function getImage(
  deps: Pick<Deps, 'ddb' | 'config'>,
  account: Account,
  imageId: string,
): Promise<Record<string, unknown>> {
  const Item = await readImageItem(deps, imageId);
  if (!Item) throw notFound(`Image ${imageId} does not exist`);
  if (Item.source === 'upload' && Item.account_id !== account.id && !Item.public)
    throw forbidden(`Image ${imageId} belongs to another account`);
  return Item;
}

export const asUpload = (item: Record<string, unknown>) => uploadSchema.parse(item);

/** What everyone sees of a catalogue image, and of a public upload the summary its publication stored. */
const shownImageSchema = z.object({
  id: z.string(),
  file: z.string(),
  width: z.number(),
  height: z.number(),
  species_id: z.enum(SPECIES),
  breed_ids: z.array(z.string()),
  category_ids: z.array(z.number()),
  created_at: z.string(),
  kind: z.optional(z.literal('photo')),
  attribution: z.optional(
    z.object({ author: z.nullable(z.string()), licence: z.string(), source_url: z.nullable(z.string()) }),
  ),
});
const publishedUploadSchema = z.object({ public: z.object({ summary: shownImageSchema }) });

/**
 * One image as its caller sees it: their own upload in full; another account's upload once public, as the public
 * library shows it; anything else is a catalogue image or an imported photo, stored in the shown shape.
 */
export async function showImage(deps: Pick<Deps, 'ddb' | 'config'>, account: Account, imageId: string) {
  const item = await getImage(deps, account, imageId);
  if (item.source === 'upload' && item.account_id === account.id)
    return presentUpload(asUpload(item), deps.config.mediaBaseUrl);
  const image =
    item.source === 'upload' ? publishedUploadSchema.parse(item).public.summary : shownImageSchema.parse(item);
  return {
    id: image.id,
    url: publicMediaUrl(deps.config.mediaBaseUrl, image.file),
    width: image.width,
    height: image.height,
    species_id: image.species_id,
    breed_ids: image.breed_ids,
    category_ids: image.category_ids,
    status: 'approved' as const,
    created_at: image.created_at,
    ...provenanceOf(image),
  };
}

/**
 * Deletes an upload with everything that hangs on it, in one transaction: the account's image count, its pending
 * public request (the administrators' queue forgets it) and, when it is public, its place in search. The request
 * history in the image's partition and the object follow.
 */
export async function deleteUpload(deps: UploadDeps, account: Account, imageId: string): Promise<void> {
  const item = await getImage(deps, account, imageId);
  if (item.source !== 'upload') throw forbidden(`Image ${imageId} is a catalogue image and cannot be deleted`);
  if (item.account_id !== account.id) throw forbidden(`Image ${imageId} belongs to another account`);
  const table = deps.config.tableName;
  const published = item.public as { placement: Placement } | undefined;
  await transact(
    deps.ddb,
    [
      {
        Delete: {
          TableName: table,
          Key: imageKey(imageId),
          // The public record read above is the one unpublished: a publication in between refuses the delete.
          ConditionExpression: published
            ? 'account_id = :account AND attribute_exists(#public)'
            : 'account_id = :account AND attribute_not_exists(#public)',
          ExpressionAttributeNames: { '#public': 'public' },
          ExpressionAttributeValues: { ':account': account.id },
        },
      },
      statChange(table, account.id, 'images', -1),
      { Delete: { TableName: table, Key: pendingPublicRequestKey(imageId) } },
      ...(published ? unpublishWrites(table, imageId, published) : []),
    ],
    async (reasons) => {
      if (reasons[0] !== 'ConditionalCheckFailed') return undefined;
      return (await readImageItem(deps, imageId, true))
        ? conflict(`Image ${imageId} was made public meanwhile: try again`, { code: 'image_changed' })
        : notFound(`Image ${imageId} does not exist`);
    },
  );
  const leftovers = await queryAll(deps.ddb, {
    TableName: table,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :requests)',
    ExpressionAttributeValues: { ':pk': imagePartition(imageId), ':requests': PUBLIC_REQUEST_ITEMS_PREFIX },
    ProjectionExpression: 'pk, sk',
  });
  await batchWriteAll(
    deps.ddb,
    table,
    leftovers.map((Key) => ({ DeleteRequest: { Key } })),
  );
  // The clean copy, and the original in case it was deleted before the processor got to it.
  const upload = asUpload(item);
  const s3 = s3Client(deps.config);
  await Promise.all(
    [...new Set([upload.file, uploadedObjectKey(upload)])].map((Key) =>
      s3.send(new DeleteObjectCommand({ Bucket: deps.config.mediaBucket, Key })),
    ),
  );
}

export function listUploads(
  deps: UploadDeps,
  account: Account,
  q: { order: Order | undefined; page: number; limit: number; subId?: string | undefined },
): Promise<UploadItem[]> {
  return pageAccountItems(deps, {
    partition: accountImagesPartition(account.id),
    order: q.order,
    page: q.page,
    limit: q.limit,
    filter: subIdFilter(q.subId),
    decode: asUpload,
  });
}
