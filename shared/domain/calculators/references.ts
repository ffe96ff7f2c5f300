// What the energy calculator's body refers to: the breed of breed_id, and whether its species agrees with the request.
import type { Deps } from '../../deps.ts';
import { loadBreeds } from '../reference/breeds.ts';
import type { Species } from '../reference/species.ts';

export const speciesMismatch = (
  what: 'breed_id' | 'pet_id',
  other: Species | undefined,
  species: Species | undefined,
) =>
  species && other && other !== species ? `${what} names a ${other}, but the request is for a ${species}` : undefined;

/** What the body's breed_id refers to, for the pipeline's 400 when other fields fail too (input.ts). */
export async function energyReferenceProblems(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  body: { breed_id?: string | undefined; species_id?: Species | undefined; species?: Species | undefined },
): Promise<string[]> {
  if (!body.breed_id) return [];
  const breed = (await loadBreeds(deps)).find((b) => b.id === body.breed_id);
  if (!breed) return [`breed_id ${body.breed_id} is not a known breed id`];
  const mismatch = speciesMismatch('breed_id', breed.species_id, body.species_id ?? body.species);
  return mismatch ? [mismatch] : [];
}
