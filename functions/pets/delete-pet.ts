import { petParams } from '../../shared/domain/pets/params.ts';
import { deletePet } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { emptyBody } from '../../shared/schema/api-docs.ts';

/** 200 with an empty body (spec); the pet's records and media objects are gone when it answers. */
export const handler = httpRoute(
  route('pets.delete'),
  {
    summary: 'Delete a pet',
    description: 'The pet, its records and every media object are gone when it answers; 200 with an empty body (spec).',
    params: petParams,
    response: emptyBody,
  },
  async ({ params, account }, deps) => {
    await deletePet(deps, account, params.petId);
    return undefined;
  },
);
