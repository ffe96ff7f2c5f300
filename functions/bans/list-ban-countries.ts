import * as z from 'zod/mini';
import { countriesWithBreedLaws, loadLaws } from '../../shared/domain/reference/legislation.ts';
import { badRequest } from '../../shared/errors.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { speciesParam } from '../../shared/domain/reference/species.ts';
import { banCountryList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({
  species_id: z.optional(speciesParam),
  animal_type: z.optional(z.enum(['dog', 'cat'])),
});

export const handler = httpRoute(
  route('bans.countries'),
  {
    summary: 'Countries with breed-specific laws',
    description:
      'Countries with laws in force that single dogs out by breed or characteristics, nationally or locally, with the number of laws of each level.',
    query,
    response: banCountryList,
  },
  async ({ query }, deps) => {
    if (query.species_id && query.animal_type && query.species_id !== query.animal_type) {
      throw badRequest('species_id and animal_type name different species');
    }
    return countriesWithBreedLaws(await loadLaws(deps), query.species_id ?? query.animal_type);
  },
);
