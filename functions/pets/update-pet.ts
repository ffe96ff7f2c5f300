import { updatePetBody } from '../../shared/domain/pets/input.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentOnePet, updatePet } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petBody } from '../../shared/domain/pets/responses.ts';

/** JSON metadata; `null` clears an optional field. */
export const handler = httpRoute(
  route('pets.update'),
  {
    summary: 'Change a pet',
    description: 'JSON; `null` clears an optional field.',
    params: petParams,
    body: updatePetBody,
    response: petBody,
  },
  async ({ params, body, account }, deps) => {
    return presentOnePet(deps, await updatePet(deps, account, params.petId, body), undefined);
  },
);
