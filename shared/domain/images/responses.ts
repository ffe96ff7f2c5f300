// What the image routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { breedBody } from '../reference/responses.ts';
import { SPECIES } from '../reference/species.ts';
import { IMAGE_STATUSES } from './uploads.ts';

export const uploadBody = documented(
  z.object({
    id: z.string(),
    url: z.string(),
    status: documented(z.enum(IMAGE_STATUSES), {
      description:
        '`awaiting_upload` (two-step, bytes not yet sent), `pending` (being checked), `approved`, `rejected`.',
    }),
    sub_id: z.nullable(z.string()),
    breed_ids: z.array(z.string()),
    original_filename: z.nullable(z.string()),
    mime_type: z.nullable(z.string()),
    size: z.nullable(z.number()),
    width: z.nullable(z.number()),
    height: z.nullable(z.number()),
    rejection_reason: z.optional(documented(z.string(), { description: 'Why a `rejected` upload was refused.' })),
    labels: z.nullable(z.array(z.object({ name: z.string(), confidence: z.number() }))),
    label_source: z.nullable(z.string()),
    created_at: z.string(),
  }),
  { id: 'Upload', description: 'An image the account uploaded.' },
);

export const uploadSlotBody = documented(
  z.extend(uploadBody, {
    upload: z.object({
      method: z.literal('PUT'),
      url: documented(z.string(), { description: 'Presigned URL: PUT exactly `size` bytes with these headers.' }),
      headers: z.record(z.string(), z.string()),
      expires_at: z.string(),
    }),
  }),
  { id: 'UploadSlot' },
);

/** Whether an image is one of the catalogue's illustrations or a photo of the public library, and its credit. */
const provenance = {
  kind: documented(z.enum(['illustration', 'photo']), {
    description:
      "`illustration`: a catalogue card drawn in the tagged coat colour; `photo`: a real photograph (one of the catalogue's attributed photos, an approved upload or an imported set). Search answers photos first in its default random order.",
  }),
  attribution: documented(
    z.nullable(
      z.object({
        author: z.nullable(z.string()),
        licence: z.string(),
        licence_url: z.nullable(z.string()),
        source_url: z.nullable(z.string()),
      }),
    ),
    {
      description:
        "A photo's author (null: not named), licence (SPDX id, `public-domain`, or URL), the licence's URL (null: not a licence this service knows) and original source (null: uploaded here or not known); null for illustrations. A resized CC BY-SA photo stays under CC BY-SA.",
    },
  ),
};

export const catalogueImageBody = documented(
  z.object({
    id: z.string(),
    url: z.string(),
    width: z.number(),
    height: z.number(),
    species_id: z.enum(SPECIES),
    breed_ids: z.array(z.string()),
    category_ids: z.array(z.int()),
    status: z.literal('approved'),
    created_at: z.string(),
    ...provenance,
  }),
  { id: 'CatalogueImage', description: 'A public image: a catalogue illustration or a public-library photo.' },
);

export const imageSearchResult = documented(
  z.object({
    id: z.string(),
    url: z.string(),
    width: z.number(),
    height: z.number(),
    species_id: z.enum(SPECIES),
    age_months: z.nullable(z.int()),
    created_at: z.string(),
    ...provenance,
    breeds: z.optional(documented(z.array(breedBody), { description: 'Unless `include_breeds=false`.' })),
    categories: z.optional(
      documented(z.array(z.object({ id: z.int(), name: z.string() })), {
        description: 'Unless `include_categories=false`.',
      }),
    ),
    colours: z.optional(
      documented(z.array(z.object({ id: z.string(), code: z.string(), name: z.string() })), {
        description: 'With `include_colours=true`.',
      }),
    ),
    vote: z.optional(
      documented(z.record(z.string(), z.unknown()), { description: 'With `sub_id`: the vote that user left.' }),
    ),
    favourite: z.optional(
      documented(z.object({ id: z.string(), created_at: z.string() }), {
        description: 'With `sub_id`: the favourite that user left.',
      }),
    ),
  }),
  { id: 'Image', description: 'A public image (catalogue illustration or public-library photo) as search returns it.' },
);

/** The spec's answer to deletes of votes, favourites and uploads. */
export const successMessage = documented(z.object({ message: z.literal('SUCCESS') }), { id: 'SuccessMessage' });
