// Test data for the respiration area: a stored measurement item as the table holds it, overridable field by field.
import { respiratoryRateKey } from '../../../shared/db/keys.ts';

export function aStoredMeasurement(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const item = {
    type: 'RespiratoryRate',
    id: 'rr-1',
    account_id: 'acc-user',
    pet_id: 'pet-1',
    video_id: 'v-1',
    status: 'processing',
    breed_baseline: { low: 10, high: 30 },
    attempts: 1,
    sub_id: 'user-1',
    external_owner_id: 'owner-1',
    created_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
  return { ...respiratoryRateKey(String(item.pet_id), String(item.id)), ...item };
}
