import type { Species } from '../reference/species.ts';

/** The species and breed filters that votes and favourites lists share, applied to the image they refer to. */
export interface ImageBreedFilter {
  species?: Species | undefined;
  breedGroups?: string[] | undefined;
  excludeBreedGroups?: string[] | undefined;
}

export function imageMatchesBreedFilters(
  image: { species: string | null; breedIds: string[] },
  filter: ImageBreedFilter,
  groupsOf: (breedId: string) => string[],
): boolean {
  if (filter.species && image.species !== filter.species) return false;
  const groups = image.breedIds.flatMap(groupsOf);
  if (filter.breedGroups?.length && !filter.breedGroups.some((g) => groups.includes(g.toLowerCase()))) return false;
  if (filter.excludeBreedGroups?.some((g) => groups.includes(g.toLowerCase()))) return false;
  return true;
}
