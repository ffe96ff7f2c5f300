// Daily energy requirement of a dog or cat: pure maths, no dependencies (sources in docs/calculators.md).
import type { Species } from '../reference/species.ts';

export const NEUTER_STATUSES = ['neutered', 'intact', 'unknown'] as const;
export type NeuterStatus = (typeof NEUTER_STATUSES)[number];

export const ACTIVITY_LEVELS = ['inactive', 'normal', 'active', 'working'] as const;
export type Activity = (typeof ACTIVITY_LEVELS)[number];

/** Activity levels the factor table defines per species (cats have no active or working row). */
export const ACTIVITY_BY_SPECIES: Record<Species, readonly Activity[]> = {
  dog: ACTIVITY_LEVELS,
  cat: ['inactive', 'normal'],
};

export type LifeStage = 'growth_under_4_months' | 'growth' | 'adult';

/** Where the weight came from, best first. */
export type WeightBasis = 'given' | 'pet_record' | 'breed_standard';

export interface Band {
  min: number;
  mid: number;
  max: number;
}

export interface EnergyInput {
  species: Species;
  weightKg: number;
  weightBasis: WeightBasis;
  /** Age in months; unknown means an adult is assumed (and the answer says so). */
  ageMonths?: number | undefined;
  neuterStatus: NeuterStatus;
  activity: Activity;
  kcalPerCup?: number | undefined;
}

export interface EnergyMessage {
  code: 'life_stage_assumed_adult' | 'neuter_status_unknown' | 'weight_from_breed_standard' | 'growth_ignores_activity';
  message: string;
}

export interface EnergyResult {
  species: Species;
  weight_kg: number;
  weight_basis: WeightBasis;
  life_stage: LifeStage;
  neuter_status: NeuterStatus;
  activity: Activity;
  rer_kcal_per_day: number;
  mer: {
    category: string;
    factor: Band;
    kcal_per_day: Band;
    selected_kcal_per_day: number;
  };
  portions_per_day: { kcal_per_cup: number; cups: Band } | null;
  formulas: { rer: string; mer: string };
  messages: EnergyMessage[];
}

const band = (min: number, max = min): Band => ({ min, mid: (min + max) / 2, max });

/**
 * Maintenance-energy factors (multiples of RER) from the WSAVA Global Nutrition Committee's calorie table
 * (after NRC 2006 and Small Animal Clinical Nutrition). Active and working dogs share the table's 2.0–5.0 row,
 * split at 3.0 so that an active pet is not fed like a sled dog.
 */
function factorFor(input: EnergyInput, lifeStage: LifeStage): { category: string; factor: Band } {
  const { species, neuterStatus, activity } = input;
  if (species === 'dog') {
    if (lifeStage === 'growth_under_4_months') return { category: 'puppy_under_4_months', factor: band(3.0) };
    if (lifeStage === 'growth') return { category: 'puppy_4_to_12_months', factor: band(2.0) };
    if (activity === 'inactive') return { category: 'adult_inactive', factor: band(1.2, 1.4) };
    if (activity === 'active') return { category: 'adult_active', factor: band(2.0, 3.0) };
    if (activity === 'working') return { category: 'adult_working', factor: band(3.0, 5.0) };
    if (neuterStatus === 'neutered') return { category: 'adult_neutered', factor: band(1.6) };
    if (neuterStatus === 'intact') return { category: 'adult_intact', factor: band(1.8) };
    return { category: 'adult_neuter_status_unknown', factor: band(1.6, 1.8) };
  }
  if (lifeStage !== 'adult') return { category: 'kitten', factor: band(2.5) };
  if (activity === 'inactive') return { category: 'adult_inactive', factor: band(1.0) };
  if (neuterStatus === 'neutered') return { category: 'adult_neutered', factor: band(1.2, 1.4) };
  if (neuterStatus === 'intact') return { category: 'adult_intact', factor: band(1.4, 1.6) };
  return { category: 'adult_neuter_status_unknown', factor: band(1.2, 1.6) };
}

function lifeStageOf(species: Species, ageMonths: number | undefined): LifeStage {
  if (ageMonths === undefined || ageMonths >= 12) return 'adult';
  return species === 'dog' && ageMonths < 4 ? 'growth_under_4_months' : 'growth';
}

/** Resting energy requirement in kcal/day: 70 × kg^0.75 (Kleiber's allometric rule as used by NRC 2006). */
export const restingEnergy = (weightKg: number) => 70 * weightKg ** 0.75;

const kcal = (value: number) => Math.round(value);
const cups = (value: number) => Math.round(value * 100) / 100;

export function energyRequirement(input: EnergyInput): EnergyResult {
  const lifeStage = lifeStageOf(input.species, input.ageMonths);
  const { category, factor } = factorFor(input, lifeStage);
  const rer = restingEnergy(input.weightKg);
  const perDay: Band = { min: kcal(rer * factor.min), mid: kcal(rer * factor.mid), max: kcal(rer * factor.max) };
  return {
    species: input.species,
    weight_kg: input.weightKg,
    weight_basis: input.weightBasis,
    life_stage: lifeStage,
    neuter_status: input.neuterStatus,
    activity: input.activity,
    rer_kcal_per_day: kcal(rer),
    mer: { category, factor, kcal_per_day: perDay, selected_kcal_per_day: perDay.mid },
    portions_per_day: input.kcalPerCup
      ? {
          kcal_per_cup: input.kcalPerCup,
          cups: {
            min: cups(perDay.min / input.kcalPerCup),
            mid: cups(perDay.mid / input.kcalPerCup),
            max: cups(perDay.max / input.kcalPerCup),
          },
        }
      : null,
    formulas: {
      rer: 'RER = 70 × weight_kg^0.75 kcal/day',
      mer: 'MER = RER × factor (life stage, neuter status, activity)',
    },
    messages: messagesFor(input, lifeStage),
  };
}

function messagesFor(input: EnergyInput, lifeStage: LifeStage): EnergyMessage[] {
  const messages: EnergyMessage[] = [];
  if (input.weightBasis === 'breed_standard')
    messages.push({
      code: 'weight_from_breed_standard',
      message: "No weight was given: the midpoint of the breed standard's weight range was used",
    });
  if (input.ageMonths === undefined)
    messages.push({ code: 'life_stage_assumed_adult', message: 'No age was given: an adult was assumed' });
  else if (lifeStage !== 'adult' && input.activity !== 'normal')
    messages.push({
      code: 'growth_ignores_activity',
      message: 'Growth factors apply to young animals whatever their activity',
    });
  if (lifeStage === 'adult' && input.neuterStatus === 'unknown' && input.activity === 'normal')
    messages.push({
      code: 'neuter_status_unknown',
      message: 'Neuter status unknown: the range spans neutered and intact adults',
    });
  return messages;
}
