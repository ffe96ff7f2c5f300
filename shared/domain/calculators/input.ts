// Request schema of the energy calculator (shared by the handler and its tests).
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { text } from '../../schema/params.ts';
import { withReferences } from '../../schema/references.ts';
import { SPECIES, speciesParam } from '../reference/species.ts';
import { unitsParam } from '../reference/units.ts';
import { ACTIVITY_LEVELS, NEUTER_STATUSES } from './energy-requirement.ts';
import { energyReferenceProblems } from './references.ts';

/** Heavier than any dog on record; a bound, not a judgement. */
export const MAX_WEIGHT_KG = 200;

const isSpecies = (value: unknown) => SPECIES.some((s) => s === value);

/** `species_id`, as on every other route; `species`, its first name here, is still read when sent alone. */
const fields = z
  .strictObject({
    species_id: z.optional(speciesParam),
    species: documented(z.optional(speciesParam), {
      description:
        'The older name of `species_id`, still accepted. Sent with `species_id`, both must name the same species.',
    }),
    weight_kg: z.optional(z.number().check(z.gt(0), z.lte(MAX_WEIGHT_KG))),
    breed_id: z.optional(text({ max: 100 })),
    /** One of the caller's pets: its weight, species, breed, age and neuter status fill what the request leaves out. */
    pet_id: z.optional(text({ max: 40 })),
    age_months: z.optional(z.int().check(z.gte(0), z.lte(360))),
    neuter_status: z.optional(z.enum(NEUTER_STATUSES)),
    activity: z._default(z.enum(ACTIVITY_LEVELS), 'normal'),
    kcal_per_cup: z.optional(z.number().check(z.gt(0), z.lte(2000))),
  })
  .check(
    // Judged even when other fields fail, so the conflict is listed with them; only two valid species conflict.
    z.refine((b) => !(isSpecies(b.species) && isSpecies(b.species_id) && b.species !== b.species_id), {
      message: 'names another species than species_id (species is its older name: send species_id alone)',
      path: ['species'],
      when: () => true,
    }),
  );

export type EnergyRequirementBody = z.output<typeof fields>;

export const energyRequirementBody = withReferences(fields, (body, deps) => energyReferenceProblems(deps, body));

/** `units=imperial` adds the weight in pounds (`weight_lb`) to the answer. */
export const calculatorQuery = z.strictObject({ units: unitsParam });
