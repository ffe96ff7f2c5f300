// Test data for the records area: a record of pet-1 as the table keeps it, overridable field by field.
import { encodeTime } from 'ulid';
import type { PetRecord } from '../../../shared/domain/records/record.ts';

/** A record made at `minute` past 2026-11-20T10:00Z (its ULID starts with that time). */
export function aRecord(minute: number, overrides: Partial<PetRecord> = {}): PetRecord {
  const time = Date.parse('2026-11-20T10:00:00.000Z') + minute * 60_000;
  return {
    id: `${encodeTime(time, 10)}${String(minute).padStart(16, '0')}`,
    pet_id: 'pet-1',
    type: 'body_condition_score',
    created_at: new Date(time).toISOString(),
    result: { score: 5, explanation: 'Ribs, "waist", tuck' },
    inputs: [{ kind: 'photo', id: 'ph-1', sha256: 'a'.repeat(64) }],
    provider: 'openai',
    model_id: 'model-1',
    method_version: 'v1',
    lang: 'en',
    season: null,
    country: null,
    asked_by: { account_id: 'acc-user', sub_id: 'user-1' },
    vet: null,
    ...overrides,
  };
}
