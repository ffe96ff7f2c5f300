import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { requireOwnPet } from '../../shared/domain/pets/service.ts';
import { createPetUploadSlot, MAX_PET_PHOTO_BYTES, MAX_PET_VIDEO_BYTES } from '../../shared/domain/pets/uploads.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petUploadSlotBody } from '../../shared/domain/pets/responses.ts';

// Any bounded content_type passes validation: the service answers one outside the accepted list with 415 naming it.
const common = { content_type: text({ max: 255 }), filename: z.optional(text({ max: 255 })) };
const body = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('photo'),
    size: z.int().check(z.gte(1), z.lte(MAX_PET_PHOTO_BYTES)),
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be the lowercase hex SHA-256 of the file')),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('video'),
    size: z.int().check(z.gte(1), z.lte(MAX_PET_VIDEO_BYTES)),
    ...common,
  }),
]);

/**
 * Step one of a large photo (≤ 50 MB) or video (≤ 200 MB): the pet image record awaiting its bytes and a presigned
 * PUT URL; a photo whose declared SHA-256 is already on the pet comes back as that record, `duplicate: true`.
 */
export const handler = httpRoute(
  route('pets.create-upload'),
  {
    summary: 'Start a two-step pet upload (large photos and videos)',
    description:
      "Step one for a photo up to 50 MB or a video up to 200 MB: the record awaiting its bytes and one presigned PUT URL per 8 MiB part. A photo whose declared SHA-256 is already on the pet comes back as that record, `duplicate: true`. New photos count against the pet's 100 per 24 hours and the monthly quota. A `content_type` outside the accepted photo or video types is 415 `unsupported_format` with the `accepted` list.",
    errors: [415, 429],
    params: petParams,
    body,
    response: petUploadSlotBody,
  },
  async ({ params, body, account }, deps) => {
    const pet = await requireOwnPet(deps, account, params.petId);
    const slot = await createPetUploadSlot(deps, account, pet, body);
    return { ...(await presentPetMedia(deps, slot.media, slot.duplicate)), upload: slot.upload };
  },
);
