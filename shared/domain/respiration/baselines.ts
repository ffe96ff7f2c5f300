// Resting (sleeping or quietly resting) respiratory rates of healthy adult dogs and cats, the range a measurement is
// compared with. Sources and the reasoning behind each bound: docs/respiratory-rate.md#baselines.
import type { Species } from '../reference/species.ts';

export interface Baseline {
  low: number;
  high: number;
}

/**
 * Upper bounds: healthy dogs and cats rarely breathe 30 times a minute or more asleep or at rest (Rishniw et al.
 * 2012; Ljungvall et al. 2014), the threshold veterinary cardiologists give owners. Lower bounds: the usual clinical
 * resting ranges (dogs 10–30, cats 20–30).
 */
export const SPECIES_BASELINES: Record<Species, Baseline> = {
  dog: { low: 10, high: 30 },
  cat: { low: 20, high: 30 },
};

/**
 * The range for one pet. No published resting-rate interval differs by breed (brachycephalic breeds included: the
 * studies of their breathing measure airflow, effort and heat tolerance, not a different resting rate), so the pet's
 * species decides; a breed entry belongs here once a source gives one.
 */
export const baselineFor = (pet: { species_id: Species }): Baseline => SPECIES_BASELINES[pet.species_id];

export const isWithin = (rate: number, baseline: Baseline) => rate >= baseline.low && rate <= baseline.high;
