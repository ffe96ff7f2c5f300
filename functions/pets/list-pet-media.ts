import { listPetMediaQuery } from '../../shared/domain/pets/input.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { listPetMedia } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import * as z from 'zod/mini';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

/** The pet's gallery: photos, videos and portraits (`kind` filters), oldest first, with short-lived URLs. */
export const handler = httpRoute(
  route('pets.media-list'),
  {
    summary: "A pet's photos, videos and portraits",
    description: 'Oldest first; `kind` filters.',
    headers: ['pagination-count'],
    params: petParams,
    query: listPetMediaQuery,
    response: z.array(petMediaBody),
  },
  async ({ params, query, account }, deps) => {
    const { media, total } = await listPetMedia(deps, account, params.petId, query);
    return withHeaders(await Promise.all(media.map((m) => presentPetMedia(deps, m))), {
      'pagination-count': String(total),
    });
  },
);
