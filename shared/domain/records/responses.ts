// What the pet record routes answer, as schemas: the handlers' contracts and the OpenAPI document use them.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { petRecordSchema, recordInputSchema } from './record.ts';

export const petRecordBody = documented(
  z.object({
    ...petRecordSchema.shape,
    created_at: documented(z.string(), { description: 'When the result was made (the record id is a ULID of it).' }),
    result: documented(z.record(z.string(), z.unknown()), {
      description:
        "The result as it was made: an analysis's validated model answer, a review's decision, a measurement's outcome (docs/analysis.md#the-pets-record).",
    }),
    inputs: documented(z.array(recordInputSchema), {
      description:
        'What the result was made from: photos and videos with the SHA-256 of their bytes (null where unknown), earlier analyses by id.',
    }),
    provider: documented(z.nullable(z.string()), {
      description: 'The model provider; null for a measurement or a review.',
    }),
    method_version: documented(z.nullable(z.string()), {
      description: "The analysis's prompt version or the measurement's method version; null for a review.",
    }),
    asked_by: documented(petRecordSchema.shape.asked_by, {
      description: "The account that asked and the pet's sub_id at the time.",
    }),
    vet: documented(petRecordSchema.shape.vet, { description: 'For a review: the vet account and its decision.' }),
  }),
  { id: 'PetRecord', description: 'One result kept with what produced it, until the pet is deleted.' },
);

export const petRecordExportBody = documented(
  z.object({
    pet: z.object({
      id: z.string(),
      name: z.string(),
      species_id: z.string(),
      breed_ids: z.array(z.string()),
      sub_id: z.nullable(z.string()),
      external_owner_id: z.nullable(z.string()),
    }),
    selection: z.object({ type: z.nullable(z.string()), since: z.nullable(z.string()), until: z.nullable(z.string()) }),
    exported_at: z.string(),
    record_count: z.int(),
    records: documented(z.array(petRecordBody), { description: 'Oldest first.' }),
  }),
  { id: 'PetRecordExport' },
);
