// What the pet routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { breedBody } from '../reference/responses.ts';
import { SPECIES } from '../reference/species.ts';
import { PET_MEDIA_STATUSES } from './media.ts';
import { MEDIA_KINDS, SEXES } from './pet.ts';

export const petBody = documented(
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.nullable(z.string()),
    species_id: z.enum(SPECIES),
    breed_ids: documented(z.array(z.string()), { description: 'Catalogue breed ids; the first is the primary breed.' }),
    sex: z.nullable(z.enum(SEXES)),
    neutered: z.nullable(z.boolean()),
    birth_date: documented(z.nullable(z.string()), { description: '`YYYY-MM` or `YYYY-MM-DD`.' }),
    weight_kg: documented(z.nullable(z.number()), { description: 'Owner-reported.' }),
    sub_id: z.nullable(z.string()),
    external_owner_id: documented(z.nullable(z.string()), { description: "The integrator's own id of the owner." }),
    respiratory_alert: documented(
      z.object({
        threshold_bpm: z.number(),
        rise_percent: z.number(),
        source: z.enum(['owner', 'species_default']),
      }),
      {
        description:
          "When a completed respiratory-rate measurement raises `pet.respiratory_rate.alert`: above `threshold_bpm`, or more than `rise_percent` over the pet's own baseline. The owner's rule (PATCH), else the species default (docs/respiratory-rate.md#trend-and-alerts).",
      },
    ),
    photo_count: z.int(),
    video_count: z.int(),
    portrait_count: z.int(),
    created_at: z.string(),
    updated_at: z.string(),
    breeds: documented(z.array(breedBody), { description: 'The breeds of `breed_ids`, in the basic breed shape.' }),
  }),
  { id: 'Pet' },
);

export const petMediaBody = documented(
  z.object({
    id: z.string(),
    pet_id: z.string(),
    kind: z.enum(MEDIA_KINDS),
    status: documented(z.enum(PET_MEDIA_STATUSES), {
      description: '`awaiting_upload` (two-step), `pending` (processing), `ready`, `rejected` (see `reason`).',
    }),
    reason: z.optional(documented(z.string(), { description: 'Why a `rejected` file was refused.' })),
    url: documented(z.nullable(z.string()), {
      description: 'Short-lived signed URL of the served copy (EXIF/GPS-free photo, metadata-free video); once ready.',
    }),
    thumbnail_url: z.nullable(z.string()),
    url_expires_in: z.optional(documented(z.int(), { description: 'Seconds the URLs stay valid.' })),
    content_type: z.string(),
    bytes: z.nullable(z.number()),
    width: z.nullable(z.number()),
    height: z.nullable(z.number()),
    duration_s: z.optional(documented(z.nullable(z.number()), { description: 'Videos.' })),
    codec: z.optional(documented(z.nullable(z.string()), { description: 'Videos.' })),
    style: z.optional(documented(z.nullable(z.string()), { description: 'Portraits.' })),
    source_image_id: z.optional(documented(z.nullable(z.string()), { description: 'Portraits: the photo drawn.' })),
    generator: z.optional(
      documented(z.nullable(z.string()), { description: 'Portraits: `bedrock-nova-canvas` or `sharp-filters`.' }),
    ),
    sha256: z.nullable(z.string()),
    duplicate: documented(z.boolean(), {
      description: 'True when the same bytes were already on the pet: this is the existing record.',
    }),
    created_at: z.string(),
  }),
  { id: 'PetMedia', description: 'A photo, video or portrait of a pet.' },
);

export const createdPetBody = documented(
  z.extend(petBody, { images: documented(z.array(petMediaBody), { description: 'The photos sent with the pet.' }) }),
  { id: 'CreatedPet' },
);

export const petUploadSlotBody = documented(
  z.extend(petMediaBody, {
    upload: z.nullable(
      z.object({
        method: z.literal('PUT'),
        part_size: documented(z.int(), { description: 'Bytes per part (the last may be shorter).' }),
        parts: z.array(z.object({ part_number: z.int(), size: z.int(), url: z.string() })),
        complete: documented(z.string(), { description: 'The request that finishes the upload.' }),
        expires_at: z.string(),
      }),
    ),
  }),
  {
    id: 'PetUploadSlot',
    description: 'The record awaiting its bytes and one presigned PUT URL per part; `upload` is null for a duplicate.',
  },
);

export const portraitStyleList = z.array(
  documented(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      category: z.string(),
      popularity_score: z.int(),
    }),
    { id: 'PortraitStyle' },
  ),
);
