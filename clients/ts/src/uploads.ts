// The routes the raw paths make awkward: multipart pet creation and photo upload from bytes, and the two-step upload
// of a large photo or video (a slot with presigned part URLs, the parts PUT there, then completion).
import { PetApiError, unwrap } from './errors.ts';
import type { PetApiClient } from './client.ts';
import type { components } from './schema.ts';

type PetMedia = components['schemas']['PetMedia'];

/** A file's bytes: a Blob or File (its name and type are kept), a Buffer or other Uint8Array, or an ArrayBuffer. */
export type FileInput = Blob | Uint8Array<ArrayBuffer> | ArrayBuffer;

/** The text fields of `POST /pets` (multipart); `images` are passed beside them. */
export interface PetFields {
  name: string;
  description?: string;
  species_id?: string;
  breed_ids?: readonly string[];
  sex?: 'male' | 'female' | 'unknown';
  neutered?: boolean;
  birth_date?: string;
  weight_kg?: number | string;
  sub_id?: string;
  external_owner_id?: string;
}

/** Creates a pet with up to 20 photos in one request (`POST /pets`, multipart). Failures throw PetApiError. */
export function createPet(api: PetApiClient, fields: PetFields, photos: readonly FileInput[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  appendFiles(form, 'images', photos);
  // openapi-fetch serialises a defined body only; the serializer answers the form in its place.
  return unwrap(api.POST('/pets', { body: {} as never, bodySerializer: () => form }));
}

/** Adds up to 20 photos to a pet (`POST /pets/{petId}/images`, multipart): their records, `pending` until processed. */
export function uploadPetPhotos(api: PetApiClient, petId: string, photos: readonly FileInput[]) {
  const form = new FormData();
  appendFiles(form, 'images', photos);
  return unwrap(
    api.POST('/pets/{petId}/images', {
      params: { path: { petId } },
      body: {} as never,
      bodySerializer: () => form,
    }),
  );
}

function appendFiles(form: FormData, field: string, files: readonly FileInput[]) {
  files.forEach((file, n) => {
    const blob = toBlob(file);
    form.append(field, blob, blob instanceof File ? blob.name : `${field}-${n + 1}`);
  });
}

function toBlob(file: FileInput): Blob {
  return file instanceof Blob ? file : new Blob([file]);
}

export interface LargeUploadOptions {
  kind: 'photo' | 'video';
  /** The file's type, e.g. `image/png` or `video/mp4` (default: the Blob's own type). */
  contentType?: string;
  filename?: string;
  /** Parts sent at once (default 3). */
  concurrency?: number;
}

/**
 * The two-step upload for photos up to 50 MB and videos up to 200 MB: asks for a slot (`POST /pets/{petId}/uploads`,
 * with the photo's SHA-256), PUTs each part to its presigned URL (retried like every call, without the API's
 * credentials) and completes it with the parts' ETags. Answers the record, `pending` until processed; a photo the
 * pet already has answers its existing record (`duplicate: true`) and sends nothing.
 */
export async function uploadLargeMedia(
  api: PetApiClient,
  petId: string,
  file: FileInput,
  options: LargeUploadOptions,
): Promise<PetMedia> {
  const blob = toBlob(file);
  const slot = await unwrap(
    api.POST('/pets/{petId}/uploads', {
      params: { path: { petId } },
      body: await slotRequest(blob, options),
    }),
  );
  const { upload, ...record } = slot;
  if (upload === null) return record;
  const parts = await inParallel(upload.parts, options.concurrency ?? 3, async (part) => {
    const start = (part.part_number - 1) * upload.part_size;
    const response = await api.transferFetch(
      new Request(part.url, { method: 'PUT', body: blob.slice(start, start + part.size) }),
    );
    const etag = response.headers.get('etag');
    if (!response.ok || etag === null) throw new PetApiError(response, await response.text().catch(() => undefined));
    return { part_number: part.part_number, etag };
  });
  return unwrap(
    api.POST('/pets/{petId}/uploads/{imageId}/complete', {
      params: { path: { petId, imageId: slot.id } },
      body: { parts },
    }),
  );
}

async function slotRequest(blob: Blob, options: LargeUploadOptions) {
  const content_type = options.contentType ?? blob.type;
  if (!content_type) throw new TypeError('uploadLargeMedia needs contentType for bytes without a type');
  const filename = options.filename ?? (blob instanceof File ? blob.name : undefined);
  const common = { size: blob.size, content_type, ...(filename && { filename }) };
  if (options.kind === 'video') return { kind: 'video' as const, ...common };
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  const sha256 = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return { kind: 'photo' as const, sha256, ...common };
}

/** Maps `items` with at most `limit` calls running, keeping their order. */
async function inParallel<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await map(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
