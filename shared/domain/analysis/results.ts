// What each analysis adds to the model's answer, computed (never asked of the model): categories, life stages,
// catalogue breed ids, the wasting-risk flag and the weight formula. Pure functions; docs/analysis.md cites them.
import type { BreedRecord } from '../reference/breeds.ts';
import type { Species } from '../reference/species.ts';
import { kgToLb, rangeToLb } from '../reference/units.ts';
import type { AnswerOf } from './kinds.ts';

/** WSAVA 9-point scale: 1–3 under ideal, 4–5 ideal, 6–7 overweight, 8–9 obese. */
export function bodyConditionCategory(score: number): 'underweight' | 'ideal' | 'overweight' | 'obese' {
  if (score <= 3) return 'underweight';
  if (score <= 5) return 'ideal';
  if (score <= 7) return 'overweight';
  return 'obese';
}

/** Young under 12 months; senior from 7 years for dogs, from 11 years for cats (AAHA/AAFP life-stage guidelines). */
export function lifeStage(species: Species, ageMonths: number): 'puppy' | 'kitten' | 'adult' | 'senior' {
  if (ageMonths < 12) return species === 'dog' ? 'puppy' : 'kitten';
  return ageMonths >= (species === 'dog' ? 84 : 132) ? 'senior' : 'adult';
}

/** Any loss of muscle is a risk worth a vet's look: mild loss is the stage where it can still be reversed. */
export const wastingRisk = (condition: AnswerOf<'muscle_condition_score'>['muscle_condition']) =>
  condition !== 'normal';

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Catalogue breed by name or alternative name (case, accents and punctuation ignored), of the pet's species. */
export function matchBreed(name: string, species: Species, breeds: BreedRecord[]): BreedRecord | undefined {
  const wanted = fold(name);
  const candidates = breeds.filter((b) => b.species_id === species);
  return (
    candidates.find((b) => fold(b.name) === wanted) ??
    candidates.find((b) => b.alt_names.some((alt) => fold(alt) === wanted)) ??
    // "German Shepherd Dog" for "German Shepherd", "Maine Coon Cat" for "Maine Coon"
    candidates.find((b) => fold(b.name).replace(/ (dog|cat)$/, '') === wanted.replace(/ (dog|cat)$/, ''))
  );
}

/** A breed the model gives less confidence than this is counted as unresolved, not as a breed of the pet. */
export const BREED_CONFIDENCE_FLOOR = 0.5;

/** Whole numbers adding up to exactly 100 from shares that add up to 100: floors, then the largest remainders. */
export function largestRemainder(exact: number[]): number[] {
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((a, b) => a + b, 0);
  // Ties keep the earlier share first (sort is stable), so the same answer always rounds the same way.
  for (const [, i] of exact.map((v, i) => [v - Math.floor(v), i] as const).sort((a, b) => b[0] - a[0])) {
    if (left-- <= 0) break;
    floors[i]! += 1;
  }
  return floors;
}

export interface GenealogyMix {
  breeds: { breed_id: string; name: string; percentage: number; confidence: number }[];
  unresolved: number;
  unresolved_breeds: {
    name: string;
    percentage: number;
    confidence: number;
    reason: 'low_confidence' | 'not_in_catalogue';
  }[];
}

/**
 * The model's breeds with catalogue ids. Shares over 100 in total are scaled down to 100; what the model left out of
 * 100 stays unresolved, and so do breeds below BREED_CONFIDENCE_FLOOR or matching no catalogue breed. Rounded once,
 * over the breeds and what the model left out, by largest remainder: breeds plus `unresolved` add up to exactly 100.
 */
export function genealogyBreeds(
  answer: AnswerOf<'genealogy'>['breeds'],
  species: Species,
  breeds: BreedRecord[],
): GenealogyMix {
  const total = answer.reduce((sum, b) => sum + b.percentage, 0);
  const scale = Math.min(1, 100 / total);
  const [leftOut, ...shares] = largestRemainder([Math.max(0, 100 - total), ...answer.map((b) => b.percentage * scale)]);
  const mix: GenealogyMix = { breeds: [], unresolved: leftOut!, unresolved_breeds: [] };
  answer.forEach((b, i) => {
    const percentage = shares[i]!;
    const match = matchBreed(b.name, species, breeds);
    if (match && b.confidence >= BREED_CONFIDENCE_FLOOR)
      mix.breeds.push({ breed_id: match.id, name: match.name, percentage, confidence: b.confidence });
    else {
      const reason = match ? 'low_confidence' : 'not_in_catalogue';
      mix.unresolved_breeds.push({ name: match?.name ?? b.name, percentage, confidence: b.confidence, reason });
      mix.unresolved += percentage;
    }
  });
  mix.breeds.sort((a, b) => b.percentage - a.percentage);
  mix.unresolved_breeds.sort((a, b) => b.percentage - a.percentage);
  return mix;
}

export type SizeClass = 'toy' | 'small' | 'medium' | 'large' | 'giant';

/** Dogs: toy < 5, small < 10, medium < 25, large < 45 kg, giant beyond; cats: small < 3.5, medium < 5.5, large. */
export function sizeClass(species: Species, kg: number): SizeClass {
  if (species === 'cat') return kg < 3.5 ? 'small' : kg < 5.5 ? 'medium' : 'large';
  if (kg < 5) return 'toy';
  if (kg < 10) return 'small';
  if (kg < 25) return 'medium';
  if (kg < 45) return 'large';
  return 'giant';
}

interface Range {
  min: number;
  max: number;
}

/** The breed standard by sex: females the lower half of the range, males the upper half, unknown the whole. */
export function standardRangeBySex(range: Range, sex: string | null): Range {
  const mid = (range.min + range.max) / 2;
  if (sex === 'female') return { min: range.min, max: mid };
  if (sex === 'male') return { min: mid, max: range.max };
  return range;
}

/** About 10 % of body weight per BCS point away from the ideal 5 (data-and-models: BCS weight rule). */
export const bcsWeightFactor = (score: number | undefined) => (score === undefined ? 1 : 1 + 0.1 * (score - 5));

const kg = (value: number) => Math.round(value * 10) / 10;

export interface WeightEstimate {
  method: 'model_and_breed_standard' | 'model' | 'breed_standard';
  weight_kg: number;
  weight_range_kg: Range;
  size_class: SizeClass;
  breed_standard_kg: Range | null;
  body_condition_score: number | null;
  model_weight: number | null;
}

/**
 * weight = c × model + (1 − c) × prior, where prior = breed standard (by sex) × (1 + 0.1 × (BCS − 5)) and
 * c is the model's confidence kept within [0.2, 0.8], so neither source is ever ignored. Ranges combine the same way.
 * Without a model answer the prior alone; without a breed standard the model alone.
 */
export function estimateWeight(input: {
  species: Species;
  sex: string | null;
  standard: Range | null;
  bcs: number | undefined;
  model: AnswerOf<'estimated_weight'> | undefined;
}): WeightEstimate | undefined {
  const { model, standard, bcs } = input;
  const bySex = standard ? standardRangeBySex(standard, input.sex) : null;
  const factor = bcsWeightFactor(bcs);
  const prior = bySex ? { min: bySex.min * factor, max: bySex.max * factor } : null;
  let method: WeightEstimate['method'];
  let weight: number;
  let range: Range;
  if (model && prior) {
    const c = Math.min(0.8, Math.max(0.2, model.confidence));
    const mix = (m: number, p: number) => c * m + (1 - c) * p;
    method = 'model_and_breed_standard';
    weight = mix(model.weight_kg, (prior.min + prior.max) / 2);
    range = { min: mix(model.weight_range_kg.min, prior.min), max: mix(model.weight_range_kg.max, prior.max) };
  } else if (model) {
    method = 'model';
    weight = model.weight_kg;
    range = model.weight_range_kg;
  } else if (prior) {
    method = 'breed_standard';
    weight = (prior.min + prior.max) / 2;
    range = prior;
  } else return undefined;
  return {
    method,
    weight_kg: kg(weight),
    weight_range_kg: { min: kg(Math.min(range.min, weight)), max: kg(Math.max(range.max, weight)) },
    size_class: sizeClass(input.species, weight),
    breed_standard_kg: bySex ? { min: kg(bySex.min), max: kg(bySex.max) } : null,
    body_condition_score: bcs ?? null,
    model_weight: model ? model.weight_kg : null,
  };
}

/** `units=imperial`: the estimate's weights in pounds as well, converted from the kilograms as answered. */
export const weightInPounds = (estimate: WeightEstimate) => ({
  weight_lb: kgToLb(estimate.weight_kg),
  weight_range_lb: rangeToLb(estimate.weight_range_kg),
  breed_standard_lb: estimate.breed_standard_kg && rangeToLb(estimate.breed_standard_kg),
  model_weight_lb: estimate.model_weight === null ? null : kgToLb(estimate.model_weight),
});
