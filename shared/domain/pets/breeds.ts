// A pet's breed ids against the breed catalogue: the service's rule on create and change, and the reference check
// the pipeline adds to a 400 when the request has other problems too (input.ts).
import type { Deps } from '../../deps.ts';
import { loadBreeds } from '../reference/breeds.ts';
import type { PetItem } from './pet.ts';

type Species = PetItem['species_id'];

/** Breed ids must be catalogue ids of one species; the species follows from the primary breed when not given. */
export async function checkBreeds(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  breedIds: string[],
  speciesId: Species | undefined,
): Promise<{ species: Species | undefined; problems: string[] }> {
  if (breedIds.length === 0) return { species: speciesId, problems: [] };
  const catalogue = new Map((await loadBreeds(deps)).map((b) => [b.id, b]));
  const problems: string[] = [];
  const duplicates = breedIds.filter((id, i) => breedIds.indexOf(id) !== i);
  if (duplicates.length > 0) problems.push(`breed_ids lists ${duplicates.join(', ')} more than once`);
  const unknown = breedIds.filter((id) => !catalogue.has(id));
  if (unknown.length > 0)
    problems.push(`breed_ids ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not a known breed id`);
  const species = speciesId ?? catalogue.get(breedIds[0]!)?.species_id;
  const otherSpecies = breedIds.filter((id) => catalogue.has(id) && catalogue.get(id)!.species_id !== species);
  if (species && otherSpecies.length > 0)
    problems.push(
      `breed_ids ${otherSpecies.join(', ')} ${otherSpecies.length > 1 ? 'are not breeds' : 'is not a breed'} of species ${species}`,
    );
  return { species, problems };
}

/** The breed problems of a request's accepted fields, for the pipeline's 400 (shared/http/validation.ts). */
export const breedProblems = async (
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  fields: { breed_ids?: string[] | undefined; species_id?: Species | undefined },
) => (await checkBreeds(deps, fields.breed_ids ?? [], fields.species_id)).problems;
