import * as z from 'zod/mini';
import { petMediaParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { requireOwnPetMedia } from '../../shared/domain/pets/service.ts';
import { completePetUpload } from '../../shared/domain/pets/uploads.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

const body = z.strictObject({
  parts: z
    .array(z.strictObject({ part_number: z.int().check(z.gte(1), z.lte(10_000)), etag: text({ max: 200 }) }))
    .check(z.minLength(1), z.maxLength(100)),
});

/** Step two of a large upload: the ETag of every part; answers the record, now pending processing. */
export const handler = httpRoute(
  route('pets.complete-upload'),
  {
    summary: 'Finish a two-step pet upload',
    description: 'Step two: the ETag of every part; answers the record, now pending processing.',
    errors: [409],
    params: petMediaParams,
    body,
    response: petMediaBody,
  },
  async ({ params, body, account }, deps) => {
    const { media } = await requireOwnPetMedia(deps, account, params.petId, params.imageId);
    return presentPetMedia(deps, await completePetUpload(deps, media, body.parts));
  },
);
