import type { Deps } from '../../deps.ts';
import { loadBreeds } from './breeds.ts';

/** Breed id → its groups in lower case, from the reference breeds (for breed-group filters on user data). */
export async function breedGroupsLookup(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
): Promise<(breedId: string) => string[]> {
  const groups = new Map((await loadBreeds(deps)).map((b) => [b.id, b.breed_groups.map((g) => g.toLowerCase())]));
  return (breedId) => groups.get(breedId) ?? [];
}
