import * as z from 'zod/mini';
import { loadBreeds } from '../../shared/domain/reference/breeds.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { speciesParam } from '../../shared/domain/reference/species.ts';
import { breedGroupList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({ species_id: z.optional(speciesParam) });

export const handler = httpRoute(
  route('breeds.groups'),
  { summary: 'Breed groups', query, response: breedGroupList },
  async ({ query }, deps) => {
    const breeds = (await loadBreeds(deps)).filter((b) => !query.species_id || b.species_id === query.species_id);
    return [...new Set(breeds.flatMap((b) => b.breed_groups))].sort((a, b) => a.localeCompare(b, 'en'));
  },
);
