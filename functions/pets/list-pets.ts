import { listPetsQuery } from '../../shared/domain/pets/input.ts';
import { listPets, presentPets } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import * as z from 'zod/mini';
import { petBody } from '../../shared/domain/pets/responses.ts';

/** The caller's pets, oldest first by default, with every filter; `Pagination-Count` carries the total. */
export const handler = httpRoute(
  route('pets.list'),
  { summary: 'Your pets', headers: ['pagination-count'], query: listPetsQuery, response: z.array(petBody) },
  async ({ query, account }, deps) => {
    const { pets, total } = await listPets(deps, account, query);
    return withHeaders(await presentPets(deps, pets, query.lang), { 'pagination-count': String(total) });
  },
);
