import { petParams, updatePetBody } from '../../shared/domain/pets/input.ts';
import { presentPets, updatePet } from '../../shared/domain/pets/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

/** JSON metadata; `null` clears an optional field. */
export const handler = httpRoute(
  route('pets.update'),
  { params: petParams, body: updatePetBody },
  async ({ params, body, account }, deps) => {
    const [pet] = await presentPets(deps, [await updatePet(deps, account, params.petId, body)], undefined);
    return pet;
  },
);
