import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { PHOTO_WAIT_DOC } from '../../shared/domain/pets/photo-wait.ts';
import { requestPortrait } from '../../shared/domain/pets/portraits.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { PORTRAIT_STYLES } from '../../shared/ports/image-generator.ts';
import { route } from './routes.ts';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

const body = z.strictObject({
  style: z.enum(PORTRAIT_STYLES),
  image_ids: z.optional(z.array(text({ max: 40 })).check(z.minLength(1), z.maxLength(1))),
});

/** A pending portrait (kind `portrait`) of the pet, drawn asynchronously; poll GET /pets/{petId}/images/{id}. */
export const handler = httpRoute(
  route('pets.portrait-create'),
  {
    summary: 'Draw a portrait of the pet',
    description: `A pending portrait (kind \`portrait\`), drawn asynchronously from the pet's newest ready photo (or \`image_ids\`); poll GET /pets/{petId}/images/{imageId}. ${PHOTO_WAIT_DOC}`,
    params: petParams,
    body,
    response: petMediaBody,
  },
  async ({ params, body, account, timeLeftMs }, deps) =>
    presentPetMedia(deps, await requestPortrait(deps, account, params.petId, body, timeLeftMs())),
);
