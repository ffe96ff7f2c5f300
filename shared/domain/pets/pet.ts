// The pet record: the stored item, its type and the response shape (docs/decisions.md#pets).
import * as z from 'zod/mini';
import type { presentBreed } from '../reference/breeds.ts';
import { SPECIES } from '../reference/species.ts';
import { alertRuleOf, alertRuleSchema } from '../respiration/trend.ts';

export const SEXES = ['male', 'female', 'unknown'] as const;
export const MEDIA_KINDS = ['photo', 'video', 'portrait'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export const petItemSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  species_id: z.enum(SPECIES),
  /** Catalogue breed ids; the first is the primary breed. */
  breed_ids: z.array(z.string()),
  sex: z.nullable(z.enum(SEXES)),
  neutered: z.nullable(z.boolean()),
  /** `YYYY-MM` or `YYYY-MM-DD`, as precise as the owner knows it. */
  birth_date: z.nullable(z.string()),
  /** Owner-reported. */
  weight_kg: z.nullable(z.number()),
  sub_id: z.nullable(z.string()),
  external_owner_id: z.nullable(z.string()),
  /** The owner's respiratory-rate alert rule; null: the species default (docs/respiratory-rate.md#trend-and-alerts). */
  respiratory_alert: z._default(z.nullable(alertRuleSchema), null),
  photo_count: z._default(z.number(), 0),
  video_count: z._default(z.number(), 0),
  portrait_count: z._default(z.number(), 0),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PetItem = z.infer<typeof petItemSchema>;

export const asPet = (item: Record<string, unknown>): PetItem => petItemSchema.parse(item);

/** The fields an owner sets (create and PATCH). */
export type PetProfile = Pick<
  PetItem,
  | 'name'
  | 'description'
  | 'species_id'
  | 'breed_ids'
  | 'sex'
  | 'neutered'
  | 'birth_date'
  | 'weight_kg'
  | 'sub_id'
  | 'external_owner_id'
  | 'respiratory_alert'
>;

/**
 * The response shape: the record without its account, the respiratory-rate alert rule that applies (the owner's or
 * the species default), breeds expanded in the basic breed shape.
 */
export function presentPet(pet: PetItem, breeds: ReturnType<typeof presentBreed>[]) {
  const { account_id: _account, ...fields } = pet;
  const respiratoryAlert = {
    ...alertRuleOf(pet),
    source: pet.respiratory_alert ? 'owner' : 'species_default',
  } as const;
  return { ...fields, respiratory_alert: respiratoryAlert, breeds };
}
