import { updatePetBody } from '../../shared/domain/pets/input.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentOnePet, updatePet } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { idempotency } from '../../shared/http/idempotency.ts';
import { route } from './routes.ts';

/** JSON metadata; `null` clears an optional field. */
export const handler = httpRoute(
  route('pets.update'),
  {
    idempotency,
    summary: 'Change a pet',
    description: 'JSON; `null` clears an optional field.',
    params: petParams,
    body: updatePetBody,
  },
  async ({ params, body, account }, deps) => {
    return presentOnePet(deps, await updatePet(deps, account, params.petId, body), undefined);
  },
);
