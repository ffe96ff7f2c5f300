// Calculator rules that need data: which weight, species, age and neuter status to use, and what to say when no
// weight is usable. Precedence: what the request says, then the pet's record, then the breed standard.
import type { Deps } from '../../deps.ts';
import { AppError, badRequest } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { petAgeInMonths } from '../pets/age.ts';
import { requireOwnPet } from '../pets/service.ts';
import { type BreedRecord, requireBreed } from '../reference/breeds.ts';
import { speciesMismatch } from './references.ts';
import type { Species } from '../reference/species.ts';
import { kgToLb, type UnitSystem } from '../reference/units.ts';
import { ACTIVITY_BY_SPECIES, energyRequirement, type NeuterStatus, type WeightBasis } from './energy-requirement.ts';
import type { EnergyRequirementBody } from './input.ts';

type CalculatorDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const weightRequired = () =>
  new AppError(422, 'No usable weight: send weight_kg, a breed_id with a standard weight, or a pet with a weight', {
    code: 'weight_required',
  });

const neuterStatusOf = (neutered: boolean | null | undefined): NeuterStatus =>
  neutered === true ? 'neutered' : neutered === false ? 'intact' : 'unknown';

export async function calculateEnergyRequirement(
  deps: CalculatorDeps,
  account: Account,
  body: EnergyRequirementBody,
  units: UnitSystem,
) {
  const pet = body.pet_id ? await requireOwnPet(deps, account, body.pet_id) : undefined;
  const breedId = body.breed_id ?? pet?.breed_ids[0];
  const breed: BreedRecord | undefined = breedId ? await requireBreed(deps, breedId) : undefined;
  const species: Species | undefined = body.species_id ?? body.species ?? pet?.species_id ?? breed?.species_id;
  const mismatch =
    speciesMismatch('breed_id', breed?.species_id, species) ?? speciesMismatch('pet_id', pet?.species_id, species);
  if (mismatch) throw badRequest(mismatch);

  const standard = breed?.weight?.metric;
  const weight: { kg: number; basis: WeightBasis } | undefined =
    body.weight_kg !== undefined
      ? { kg: body.weight_kg, basis: 'given' }
      : pet?.weight_kg
        ? { kg: pet.weight_kg, basis: 'pet_record' }
        : standard
          ? { kg: (standard.min + standard.max) / 2, basis: 'breed_standard' }
          : undefined;
  if (!weight) throw weightRequired();
  if (!species) throw badRequest('species_id is required when no breed_id or pet_id names it');
  const activity = body.activity;
  if (!ACTIVITY_BY_SPECIES[species].includes(activity))
    throw badRequest(`activity must be one of: ${ACTIVITY_BY_SPECIES[species].join(', ')} for a ${species}`);

  const result = energyRequirement({
    species,
    weightKg: weight.kg,
    weightBasis: weight.basis,
    ageMonths: body.age_months ?? (pet ? (petAgeInMonths(pet.birth_date, deps.now()) ?? undefined) : undefined),
    neuterStatus: body.neuter_status ?? neuterStatusOf(pet?.neutered),
    activity,
    kcalPerCup: body.kcal_per_cup,
  });
  return {
    ...result,
    units,
    ...(units === 'imperial' && { weight_lb: kgToLb(result.weight_kg) }),
    breed_id: breed?.id ?? null,
    pet_id: pet?.id ?? null,
  };
}
