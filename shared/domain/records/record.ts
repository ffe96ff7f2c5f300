// A pet's durable record of one result: an analysis answer, a vet's review decision or a respiratory-rate
// measurement, with what produced it (inputs and their SHA-256, provider, model, prompt or method version, who asked).
// The area that produces the result writes its record in the same transaction as the result (recordWrites); records
// have no TTL and go only with their pet. docs/analysis.md#the-pets-record.
import * as z from 'zod/mini';
import { petKey, petRecordKey, petRecordTypeIndex } from '../../db/keys.ts';
import type { TransactItem } from '../../db/transact.ts';

/** The item type (the table stream routes no event for it). */
const RECORD_ITEM_TYPE = 'PetRecord';

export const RECORD_TYPES = [
  'body_condition_score',
  'estimated_age',
  'genealogy',
  'muscle_condition_score',
  'estimated_weight',
  'health_tips',
  'bcs_review',
  'respiratory_rate',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** What a result was made from: a photo or video of the pet (with the SHA-256 of its bytes), or an earlier result. */
export const recordInputSchema = z.object({
  kind: z.enum(['photo', 'video', 'analysis']),
  id: z.string(),
  sha256: z.nullable(z.string()),
});
export type RecordInput = z.infer<typeof recordInputSchema>;

export const petRecordSchema = z.object({
  id: z.string(),
  pet_id: z.string(),
  type: z.enum(RECORD_TYPES),
  created_at: z.string(),
  result: z.record(z.string(), z.unknown()),
  inputs: z.array(recordInputSchema),
  provider: z.nullable(z.string()),
  model_id: z.nullable(z.string()),
  method_version: z.nullable(z.string()),
  lang: z.nullable(z.string()),
  season: z.nullable(z.string()),
  country: z.nullable(z.string()),
  asked_by: z.object({ account_id: z.string(), sub_id: z.nullable(z.string()) }),
  vet: z.nullable(z.object({ account_id: z.string(), decision: z.enum(['completed', 'rejected']) })),
});
export type PetRecord = z.infer<typeof petRecordSchema>;

export const asPetRecord = (item: Record<string, unknown>): PetRecord => petRecordSchema.parse(item.record);

/**
 * The writes of a new record, to join the transaction that stores its result: the record once (its id is the
 * result's, so a retried transaction cannot add a second), and only while the pet exists. Deleting a pet removes the
 * pet first and reads its partition after, so a record committed before that read is deleted with the rest and none
 * can be committed after: the deletion is final for records too.
 */
export function recordWrites(tableName: string, record: PetRecord): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...petRecordKey(record.pet_id, record.id),
          ...petRecordTypeIndex(record.pet_id, record.type, record.id),
          type: RECORD_ITEM_TYPE,
          record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      ConditionCheck: {
        TableName: tableName,
        Key: petKey(record.pet_id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  ];
}
