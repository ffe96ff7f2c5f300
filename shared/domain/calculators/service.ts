// Calculator rules that need data: which weight and species to use, and what to say when none is usable.
import type { Deps } from '../../deps.ts';
import { AppError, badRequest } from '../../errors.ts';
import type { Species } from '../reference/species.ts';
import { requireBreed } from '../reference/breeds.ts';
import { ACTIVITY_BY_SPECIES, energyRequirement, type EnergyResult, type WeightBasis } from './energy-requirement.ts';
import type { EnergyRequirementBody } from './input.ts';

type CalculatorDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const weightRequired = () =>
  new AppError(422, 'No usable weight: send weight_kg, a breed_id with a standard weight, or a pet with a weight', {
    code: 'weight_required',
  });

export async function calculateEnergyRequirement(
  deps: CalculatorDeps,
  body: EnergyRequirementBody,
): Promise<EnergyResult & { breed_id: string | null }> {
  const breed = body.breed_id ? await requireBreed(deps, body.breed_id) : undefined;
  if (breed && body.species && breed.species_id !== body.species)
    throw badRequest(`breed_id ${breed.id} is a ${breed.species_id} breed, not a ${body.species} breed`);
  const species: Species | undefined = body.species ?? breed?.species_id;

  const standard = breed?.weight?.metric;
  const weight: { kg: number; basis: WeightBasis } | undefined =
    body.weight_kg !== undefined
      ? { kg: body.weight_kg, basis: 'given' }
      : standard
        ? { kg: (standard.min + standard.max) / 2, basis: 'breed_standard' }
        : undefined;
  if (!weight) throw weightRequired();
  if (!species) throw badRequest('species is required when no breed_id names it');
  if (!ACTIVITY_BY_SPECIES[species].includes(body.activity))
    throw badRequest(`activity must be one of: ${ACTIVITY_BY_SPECIES[species].join(', ')} for a ${species}`);

  const result = energyRequirement({
    species,
    weightKg: weight.kg,
    weightBasis: weight.basis,
    ageMonths: body.age_months,
    neuterStatus: body.neuter_status,
    activity: body.activity,
    kcalPerCup: body.kcal_per_cup,
  });
  return { ...result, breed_id: breed?.id ?? null };
}
