import { petMediaParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { requireOwnPetMedia } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

/** One pet image record with fresh short-lived URLs (how a client follows processing or renews a URL). */
export const handler = httpRoute(
  route('pets.media-get'),
  {
    summary: 'One photo, video or portrait',
    description: 'With fresh short-lived URLs: how a client follows processing or renews a URL.',
    params: petMediaParams,
    response: petMediaBody,
  },
  async ({ params, account }, deps) => {
    const { media } = await requireOwnPetMedia(deps, account, params.petId, params.imageId);
    return presentPetMedia(deps, media);
  },
);
