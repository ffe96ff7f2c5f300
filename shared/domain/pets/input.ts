// Request schemas of the pet routes. Multipart text fields arrive as strings, JSON bodies typed; both share the rules.
import * as z from 'zod/mini';
import { pageQuery } from '../reference/list-query.ts';
import { boolean, caseInsensitiveEnum, list, text } from '../../schema/params.ts';
import { speciesParam } from '../reference/species.ts';
import { subIdParam } from '../../schema/sub-id.ts';
import { withReferences } from '../../schema/references.ts';
import { RISE_PERCENT, THRESHOLD_BPM } from '../respiration/trend.ts';
import { breedProblems } from './breeds.ts';
import { MEDIA_KINDS, SEXES } from './pet.ts';

export const MAX_BREEDS_PER_PET = 5;
export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_WEIGHT_KG = 200;

const BIRTH_DATE = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

/** A calendar date or month that exists and is not after today (UTC). */
export function birthDateProblem(value: string, today: Date): string | undefined {
  const m = BIRTH_DATE.exec(value);
  if (!m) return 'must be YYYY-MM or YYYY-MM-DD';
  const [year, month, day] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return 'is not a real date';
  if (year < 1900) return 'must be after 1900';
  const todayText = today.toISOString().slice(0, value.length);
  if (value > todayText) return 'must not be in the future';
  return undefined;
}

const birthDate = z.string().check(
  z.superRefine((value, ctx) => {
    const problem = birthDateProblem(value, new Date());
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value });
  }),
);

const weightKg = z.number().check(z.gt(0), z.lte(MAX_WEIGHT_KG));
const breedIds = z.array(text({ max: 100 })).check(z.maxLength(MAX_BREEDS_PER_PET));
const name = text({ max: MAX_NAME_LENGTH });
const description = text({ min: 0, max: MAX_DESCRIPTION_LENGTH, lineBreaks: true });
const externalOwnerId = text({ max: 255 });
const sex = z.enum(SEXES);
/** When a completed respiratory-rate measurement raises `pet.respiratory_rate.alert`; both bounds required. */
const respiratoryAlert = z.strictObject({
  threshold_bpm: z.int().check(z.gte(THRESHOLD_BPM.min), z.lte(THRESHOLD_BPM.max)),
  rise_percent: z.int().check(z.gte(RISE_PERCENT.min), z.lte(RISE_PERCENT.max)),
});

/** A signed decimal: a negative weight is read as a number and refused for its sign, not its spelling. */
const DECIMAL = /^[-+]?\d+(\.\d+)?$/;
/** A decimal number sent as a form field. */
const formNumber = z.pipe(
  z.string().check(z.refine((v) => DECIMAL.test(v.trim()), 'must be a number')),
  z.pipe(
    z.transform((v: string) => Number(v)),
    weightKg,
  ),
);

/** POST /pets (multipart): the profile as text fields; photos come as files in `images`. */
export const createPetFields = withReferences(
  z.strictObject({
    name,
    description: z.optional(description),
    species_id: z.optional(speciesParam),
    breed_ids: z.optional(z.pipe(list(), breedIds)),
    sex: z.optional(sex),
    neutered: z.optional(boolean()),
    birth_date: z.optional(birthDate),
    weight_kg: z.optional(formNumber),
    sub_id: z.optional(subIdParam),
    external_owner_id: z.optional(externalOwnerId),
  }),
  (fields, deps) => breedProblems(deps, fields),
);
export type CreatePetFields = z.output<typeof createPetFields>;

/** PATCH /pets/{petId} (JSON): any profile field; `null` clears an optional one. */
export const updatePetBody = withReferences(
  z.strictObject({
    name: z.optional(name),
    description: z.optional(z.nullable(description)),
    species_id: z.optional(speciesParam),
    breed_ids: z.optional(breedIds),
    sex: z.optional(z.nullable(sex)),
    neutered: z.optional(z.nullable(z.boolean())),
    birth_date: z.optional(z.nullable(birthDate)),
    weight_kg: z.optional(z.nullable(weightKg)),
    sub_id: z.optional(z.nullable(subIdParam)),
    external_owner_id: z.optional(z.nullable(externalOwnerId)),
    respiratory_alert: z.optional(z.nullable(respiratoryAlert)),
  }),
  // The stored pet's species is checked by the service once the pet is known to be the caller's.
  (body, deps) => breedProblems(deps, body),
);
export type UpdatePetBody = z.output<typeof updatePetBody>;

/** GET /pets: the spec's page parameters (order ASC by default) and the pet filters. */
export const listPetsQuery = z.strictObject({
  ...pageQuery({ defaultLimit: 10, maxLimit: 100, defaultOrder: 'ASC' }),
  breed_id: z.optional(text({ max: 100 })),
  sub_id: z.optional(subIdParam),
  external_owner_id: z.optional(externalOwnerId),
});
export type ListPetsQuery = z.output<typeof listPetsQuery>;

/** GET /pets/{petId}/images: page parameters and a `kind` filter. */
export const listPetMediaQuery = z.strictObject({
  limit: pageQuery({ defaultLimit: 20, maxLimit: 100 }).limit,
  page: pageQuery({ defaultLimit: 20, maxLimit: 100 }).page,
  order: pageQuery({ defaultLimit: 20, maxLimit: 100, defaultOrder: 'ASC' }).order,
  kind: z.optional(caseInsensitiveEnum(MEDIA_KINDS)),
});
