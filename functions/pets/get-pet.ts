import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentOnePet, requireOwnPet } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { langParam } from '../../shared/domain/reference/i18n.ts';
import { petBody } from '../../shared/domain/pets/responses.ts';

const query = z.strictObject({ lang: z.optional(langParam) });

export const handler = httpRoute(
  route('pets.get'),
  { summary: 'One pet', params: petParams, query, response: petBody },
  async ({ params, query, account }, deps) => {
    return presentOnePet(deps, await requireOwnPet(deps, account, params.petId), query.lang);
  },
);
