// Pet media objects in the media bucket: where they live, how they are written, served and removed.
// Everything under pets/ is private: the CDN is denied the prefix (infra/constructs/media.ts) and clients get
// presigned GET URLs that expire.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type PutObjectCommandInput,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '../../aws/s3.ts';
import type { Deps } from '../../deps.ts';
import type { ServedObject } from '../../media/served-object.ts';

/** Originals as uploaded, one prefix per kind so that each kind's bucket notification reaches its own processor. */
export const PET_PHOTOS_PREFIX = 'pets/photos/';
export const PET_VIDEOS_PREFIX = 'pets/videos/';
/** What the service derives and serves: cleaned copies, thumbnails, posters, portraits. */
export const PET_DERIVED_PREFIX = 'pets/media/';

const petPath = (accountId: string, petId: string) => `${accountId}/${petId}/`;

export const petObjectKeys = {
  photo: (accountId: string, petId: string, mediaId: string, extension: string) =>
    `${PET_PHOTOS_PREFIX}${petPath(accountId, petId)}${mediaId}${extension}`,
  video: (accountId: string, petId: string, mediaId: string, extension: string) =>
    `${PET_VIDEOS_PREFIX}${petPath(accountId, petId)}${mediaId}${extension}`,
  derived: (accountId: string, petId: string, mediaId: string, name: string) =>
    `${PET_DERIVED_PREFIX}${petPath(accountId, petId)}${mediaId}/${name}`,
  /** Every prefix holding objects of one pet. */
  ofPet: (accountId: string, petId: string) =>
    [PET_PHOTOS_PREFIX, PET_VIDEOS_PREFIX, PET_DERIVED_PREFIX].map((prefix) => `${prefix}${petPath(accountId, petId)}`),
  /** Every object of one media item (the original is passed in: its extension is known only to the record). */
  ofMedia: (accountId: string, petId: string, mediaId: string) =>
    `${PET_DERIVED_PREFIX}${petPath(accountId, petId)}${mediaId}/`,
};

const PET_KEY = /^pets\/(photos|videos)\/([^/]+)\/([^/]+)\/([^/.]+)\.[a-z0-9]+$/;

/** Parses an original's key (from a bucket notification) into its owner, pet and media id. */
export function parsePetObjectKey(key: string) {
  const m = PET_KEY.exec(key);
  return m
    ? { kind: m[1] === 'photos' ? 'photo' : 'video', accountId: m[2]!, petId: m[3]!, mediaId: m[4]! }
    : undefined;
}

type S3Deps = Pick<Deps, 'config'>;

/** What an object says of itself: served objects their type and disposition, originals (never served) their type. */
export type ObjectMetadata = ServedObject | { ContentType: string };

export async function putMediaObject(
  deps: S3Deps,
  key: string,
  body: PutObjectCommandInput['Body'],
  metadata: ObjectMetadata,
): Promise<void> {
  await s3Client(deps.config).send(
    new PutObjectCommand({ Bucket: deps.config.mediaBucket, Key: key, Body: body, ...metadata }),
  );
}

/** A file from disk: one PUT when small, else a multipart upload of 8 MiB parts read one at a time. */
export async function putMediaFile(deps: S3Deps, key: string, path: string, metadata: ObjectMetadata): Promise<void> {
  const { size } = await stat(path);
  const file = await open(path);
  try {
    if (size <= UPLOAD_PART_BYTES) {
      await putMediaObject(deps, key, await file.readFile(), metadata);
      return;
    }
    const s3 = s3Client(deps.config);
    const bucket = deps.config.mediaBucket;
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...metadata }));
    try {
      const parts: { part_number: number; etag: string }[] = [];
      for (let offset = 0, n = 1; offset < size; offset += UPLOAD_PART_BYTES, n++) {
        const chunk = Buffer.alloc(Math.min(UPLOAD_PART_BYTES, size - offset));
        await file.read(chunk, 0, chunk.length, offset);
        const { ETag } = await s3.send(
          new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n, Body: chunk }),
        );
        parts.push({ part_number: n, etag: ETag! });
      }
      await completePartedUpload(deps, key, UploadId!, parts);
    } catch (error) {
      await abortPartedUpload(deps, key, UploadId!).catch(() => undefined);
      throw error;
    }
  } finally {
    await file.close();
  }
}

export async function getMediaObject(deps: S3Deps, key: string) {
  return s3Client(deps.config).send(new GetObjectCommand({ Bucket: deps.config.mediaBucket, Key: key }));
}

/** Streams one object to a local file (a worker's /tmp), never holding it in memory: the SHA-256 of its bytes. */
export async function downloadMediaObject(deps: S3Deps, key: string, path: string): Promise<string> {
  const object = await getMediaObject(deps, key);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(object.Body as Readable, hashing, createWriteStream(path));
  return hash.digest('hex');
}

/** A GET URL for one object, valid for the configured few minutes. */
export function signedMediaUrl(deps: S3Deps, key: string): Promise<string> {
  return getSignedUrl(s3Client(deps.config), new GetObjectCommand({ Bucket: deps.config.mediaBucket, Key: key }), {
    expiresIn: deps.config.petMediaUrlSeconds,
  });
}

/** Parts of a two-step upload: 8 MiB each (S3 wants at least 5 MiB but the last), so 200 MB is 24 parts. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

export interface UploadPart {
  part_number: number;
  size: number;
  url: string;
}

/**
 * The two-step upload as an S3 multipart upload: one presigned PUT URL per part, each bound to its exact size, so the
 * bytes go straight to the bucket and no request is larger than a part. The object exists once the parts are completed.
 */
export async function startPartedUpload(
  deps: S3Deps,
  key: string,
  contentType: string,
  size: number,
  expiresIn: number,
): Promise<{ uploadId: string; parts: UploadPart[] }> {
  const s3 = s3Client(deps.config);
  const { UploadId } = await s3.send(
    new CreateMultipartUploadCommand({ Bucket: deps.config.mediaBucket, Key: key, ContentType: contentType }),
  );
  const count = Math.max(1, Math.ceil(size / UPLOAD_PART_BYTES));
  const parts = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const partSize = i === count - 1 ? size - UPLOAD_PART_BYTES * (count - 1) : UPLOAD_PART_BYTES;
      const url = await getSignedUrl(
        s3,
        new UploadPartCommand({
          Bucket: deps.config.mediaBucket,
          Key: key,
          UploadId,
          PartNumber: i + 1,
          ContentLength: partSize,
        }),
        { expiresIn, signableHeaders: new Set(['content-length']) },
      );
      return { part_number: i + 1, size: partSize, url };
    }),
  );
  return { uploadId: UploadId!, parts };
}

export async function completePartedUpload(
  deps: S3Deps,
  key: string,
  uploadId: string,
  parts: { part_number: number; etag: string }[],
): Promise<void> {
  await s3Client(deps.config).send(
    new CompleteMultipartUploadCommand({
      Bucket: deps.config.mediaBucket,
      Key: key,
      UploadId: uploadId,
      MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.part_number, ETag: p.etag })) },
    }),
  );
}

export async function abortPartedUpload(deps: S3Deps, key: string, uploadId: string): Promise<void> {
  await s3Client(deps.config).send(
    new AbortMultipartUploadCommand({ Bucket: deps.config.mediaBucket, Key: key, UploadId: uploadId }),
  );
}

/** Deletes the given objects, 1,000 per call. */
export async function deleteMediaObjects(deps: S3Deps, keys: string[]): Promise<void> {
  const s3 = s3Client(deps.config);
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    if (batch.length === 0) continue;
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: deps.config.mediaBucket,
        Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }
}

/** Every object under the prefixes, deleted page by page; returns how many there were. */
export async function deleteMediaPrefixes(deps: S3Deps, prefixes: string[]): Promise<number> {
  const s3 = s3Client(deps.config);
  let deleted = 0;
  for (const prefix of prefixes) {
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: deps.config.mediaBucket, Prefix: prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
      await deleteMediaObjects(deps, keys);
      deleted += keys.length;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return deleted;
}
