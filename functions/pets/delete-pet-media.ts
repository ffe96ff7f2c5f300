import { petMediaParams } from '../../shared/domain/pets/params.ts';
import { deletePetMedia } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { emptyBody } from '../../shared/schema/api-docs.ts';

/** Removes one photo, video or portrait with its objects; 200 with an empty body, like deleting the pet. */
export const handler = httpRoute(
  route('pets.media-delete'),
  {
    summary: 'Delete a photo, video or portrait',
    description: 'Removes the record and its objects; 200 with an empty body.',
    params: petMediaParams,
    response: emptyBody,
  },
  async ({ params, account }, deps) => {
    await deletePetMedia(deps, account, params.petId, params.imageId);
    return undefined;
  },
);
