import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentPetMedia } from '../../shared/domain/pets/media.ts';
import { listPetMedia } from '../../shared/domain/pets/service.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import { petMediaBody } from '../../shared/domain/pets/responses.ts';

const page = pageQuery({ defaultLimit: 20, maxLimit: 100, defaultOrder: 'ASC' });
const query = z.strictObject({ limit: page.limit, page: page.page, order: page.order });

/** The pet's portraits only, oldest first, with short-lived URLs. */
export const handler = httpRoute(
  route('pets.portraits-list'),
  {
    summary: "A pet's portraits",
    headers: ['pagination-count'],
    params: petParams,
    query,
    response: z.array(petMediaBody),
  },
  async ({ params, query, account }, deps) => {
    const { media, total } = await listPetMedia(deps, account, params.petId, { ...query, kind: 'portrait' });
    return withHeaders(await Promise.all(media.map((m) => presentPetMedia(deps, m))), {
      'pagination-count': String(total),
    });
  },
);
