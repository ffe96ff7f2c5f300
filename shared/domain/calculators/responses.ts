// What the calculator routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { SPECIES } from '../reference/species.ts';
import { UNIT_SYSTEMS } from '../reference/units.ts';
import { ACTIVITY_LEVELS, NEUTER_STATUSES } from './energy-requirement.ts';

const band = z.object({ min: z.number(), mid: z.number(), max: z.number() });

export const energyRequirementResult = documented(
  z.object({
    species: z.enum(SPECIES),
    weight_kg: z.number(),
    units: z.enum(UNIT_SYSTEMS),
    weight_lb: z.optional(
      documented(z.number(), { description: 'With `units=imperial`: the weight used, to 0.1 lb.' }),
    ),
    weight_basis: documented(z.enum(['given', 'pet_record', 'breed_standard']), {
      description: 'Where the weight came from: the request, the pet, or the middle of the breed standard.',
    }),
    life_stage: z.enum(['growth_under_4_months', 'growth', 'adult']),
    neuter_status: z.enum(NEUTER_STATUSES),
    activity: z.enum(ACTIVITY_LEVELS),
    rer_kcal_per_day: documented(z.number(), { description: 'Resting energy requirement: 70 × kg^0.75.' }),
    mer: z.object({
      category: documented(z.string(), { description: 'The row of the WSAVA factor table applied.' }),
      factor: band,
      kcal_per_day: band,
      selected_kcal_per_day: z.number(),
    }),
    portions_per_day: documented(z.nullable(z.object({ kcal_per_cup: z.number(), cups: band })), {
      description: 'With `kcal_per_cup`.',
    }),
    formulas: z.object({ rer: z.string(), mer: z.string() }),
    messages: documented(
      z.array(
        z.object({
          code: z.enum([
            'life_stage_assumed_adult',
            'neuter_status_unknown',
            'weight_from_breed_standard',
            'growth_ignores_activity',
          ]),
          message: z.string(),
        }),
      ),
      { description: 'Assumptions the answer made.' },
    ),
    breed_id: z.nullable(z.string()),
    pet_id: z.nullable(z.string()),
  }),
  { id: 'EnergyRequirement', description: 'Factors and sources: docs/calculators.md.' },
);
