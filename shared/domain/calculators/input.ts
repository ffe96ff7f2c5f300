// Request schema of the energy calculator (shared by the handler and its tests).
import * as z from 'zod/mini';
import { text } from '../../http/params.ts';
import { speciesParam } from '../reference/species.ts';
import { ACTIVITY_LEVELS, NEUTER_STATUSES } from './energy-requirement.ts';

/** Heavier than any dog on record; a bound, not a judgement. */
export const MAX_WEIGHT_KG = 200;

export const energyRequirementBody = z.strictObject({
  species: z.optional(speciesParam),
  weight_kg: z.optional(z.number().check(z.gt(0), z.lte(MAX_WEIGHT_KG))),
  breed_id: z.optional(text({ max: 100 })),
  /** One of the caller's pets: its weight, species, breed, age and neuter status fill what the request leaves out. */
  pet_id: z.optional(text({ max: 40 })),
  age_months: z.optional(z.int().check(z.gte(0), z.lte(360))),
  neuter_status: z.optional(z.enum(NEUTER_STATUSES)),
  activity: z._default(z.enum(ACTIVITY_LEVELS), 'normal'),
  kcal_per_cup: z.optional(z.number().check(z.gt(0), z.lte(2000))),
});

export type EnergyRequirementBody = z.output<typeof energyRequirementBody>;
