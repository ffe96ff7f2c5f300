// A pet image record (photo, video or portrait): the stored item and its response shape with short-lived URLs.
import * as z from 'zod/mini';
import { petMediaKey, petMediaKindIndex } from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import type { Deps } from '../../deps.ts';
import { PET_MEDIA_LIFECYCLE } from '../media/lifecycle.ts';
import { signedMediaUrl } from '../media/objects.ts';
import { transition } from '../media/store.ts';
import { MEDIA_KINDS, type PetItem } from './pet.ts';

/** A 200 MB video needs time on a slow uplink: how long the two-step upload's part URLs stay valid. */
export const PET_UPLOAD_URL_SECONDS = 60 * 60;
/**
 * A record still awaiting its bytes this long after it was made is abandoned (the URLs expired an hour ago, or the
 * function died between commit and put): DynamoDB's TTL removes it and events/media/expire-uploads.ts gives back what
 * it took.
 */
export const ABANDONED_PET_UPLOAD_SECONDS = PET_UPLOAD_URL_SECONDS + 60 * 60;

/** The statuses of shared/domain/media/lifecycle.ts for pet media. */
export const PET_MEDIA_STATUSES = ['awaiting_upload', 'pending', 'ready', 'rejected'] as const;

export const petMediaSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  pet_id: z.string(),
  kind: z.enum(MEDIA_KINDS),
  status: z.enum(PET_MEDIA_STATUSES),
  reason: z._default(z.nullable(z.string()), null),
  /** The original object (private; never served). */
  file: z.string(),
  /** The served copy: EXIF/GPS-free photo, metadata-free video, or the portrait itself. */
  display_key: z._default(z.nullable(z.string()), null),
  thumbnail_key: z._default(z.nullable(z.string()), null),
  content_type: z.string(),
  bytes: z.nullable(z.number()),
  width: z._default(z.nullable(z.number()), null),
  height: z._default(z.nullable(z.number()), null),
  duration_s: z._default(z.nullable(z.number()), null),
  codec: z._default(z.nullable(z.string()), null),
  style: z._default(z.nullable(z.string()), null),
  source_image_id: z._default(z.nullable(z.string()), null),
  generator: z._default(z.nullable(z.string()), null),
  sha256: z._default(z.nullable(z.string()), null),
  original_filename: z._default(z.nullable(z.string()), null),
  /** The S3 multipart upload of a two-step upload, until it is completed. */
  upload_id: z._default(z.nullable(z.string()), null),
  /** A new photo's rate slot and when it took it: given back if the photo's bytes never arrive. */
  rate_slot: z._default(z.nullable(z.number()), null),
  rate_slot_at: z._default(z.nullable(z.string()), null),
  /** The pet's sub_id and external_owner_id when the media was added: events carry them. */
  sub_id: z._default(z.nullable(z.string()), null),
  external_owner_id: z._default(z.nullable(z.string()), null),
  labels: z._default(z.nullable(z.array(z.object({ name: z.string(), confidence: z.number() }))), null),
  label_source: z._default(z.nullable(z.string()), null),
  created_at: z.string(),
  processed_at: z._default(z.nullable(z.string()), null),
});
export type PetMediaItem = z.infer<typeof petMediaSchema>;

export const asPetMedia = (item: Record<string, unknown>): PetMediaItem => petMediaSchema.parse(item);

/**
 * The stored item: table keys, its kind's gsi1 keys (the gallery's kind filter), type and the record; one still
 * awaiting its bytes expires when abandoned.
 */
export const petMediaRow = (media: PetMediaItem) => ({
  ...petMediaKey(media.pet_id, media.id),
  ...petMediaKindIndex(media.pet_id, media.kind, media.id),
  type: 'PetMedia',
  ...media,
  ...(media.status === 'awaiting_upload' && {
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(media.created_at) / 1000) + ABANDONED_PET_UPLOAD_SECONDS,
  }),
});

/** A new record awaiting its bytes; the object key is the server's, never the client's. */
export function newPetMedia(
  deps: Pick<Deps, 'newId' | 'now'>,
  pet: PetItem,
  fields: Pick<PetMediaItem, 'kind' | 'content_type' | 'bytes' | 'sha256' | 'original_filename'> &
    Partial<PetMediaItem> & { objectKey: (id: string) => string },
): PetMediaItem {
  const id = deps.newId();
  const { objectKey, ...rest } = fields;
  return asPetMedia({
    id,
    account_id: pet.account_id,
    pet_id: pet.id,
    status: 'awaiting_upload',
    file: objectKey(id),
    sub_id: pet.sub_id,
    external_owner_id: pet.external_owner_id,
    created_at: deps.now().toISOString(),
    ...rest,
  });
}

/**
 * awaiting_upload → pending, once: whoever sees the bytes first (the request, the completing call or the processor)
 * announces them. The record is no longer a candidate for expiry (TTL only acts on a number).
 */
export const markPetMediaArrived = (
  deps: Pick<Deps, 'ddb' | 'config'>,
  media: Pick<PetMediaItem, 'pet_id' | 'id'> & { kind: 'photo' | 'video' },
): Promise<boolean> =>
  transition(deps, PET_MEDIA_LIFECYCLE[media.kind], petMediaKey(media.pet_id, media.id), 'awaiting_upload', 'pending', {
    [TTL_ATTRIBUTE]: null,
  });

type PresentDeps = Pick<Deps, 'config'>;

/** The response shape: fields per kind, URLs signed for a short time, `duplicate` when an upload matched. */
export async function presentPetMedia(deps: PresentDeps, media: PetMediaItem, duplicate = false) {
  const [url, thumbnailUrl] = await Promise.all([
    media.status === 'ready' && media.display_key ? signedMediaUrl(deps, media.display_key) : null,
    media.status === 'ready' && media.thumbnail_key ? signedMediaUrl(deps, media.thumbnail_key) : null,
  ]);
  return {
    id: media.id,
    pet_id: media.pet_id,
    kind: media.kind,
    status: media.status,
    ...(media.reason && { reason: media.reason }),
    url,
    thumbnail_url: thumbnailUrl,
    ...(url && { url_expires_in: deps.config.petMediaUrlSeconds }),
    content_type: media.content_type,
    bytes: media.bytes,
    width: media.width,
    height: media.height,
    ...(media.kind === 'video' && { duration_s: media.duration_s, codec: media.codec }),
    ...(media.kind === 'portrait' && {
      style: media.style,
      source_image_id: media.source_image_id,
      generator: media.generator,
    }),
    sha256: media.sha256,
    duplicate,
    created_at: media.created_at,
  };
}
