// A respiratory-rate measurement of a pet (early access): the stored item, its response shape and its webhook body.
// Created `processing` by the request, finished `completed` or `failed` by the measuring consumer, once.
import * as z from 'zod/mini';
import { respiratoryRateKey } from '../../db/keys.ts';
import type { PetMediaItem } from '../pets/media.ts';
import type { PetRecord } from '../records/record.ts';
import { type Language, SUPPORTED_LANGUAGES } from '../reference/i18n.ts';
import { measurementHonesty } from './honesty.ts';
import { METHOD_VERSION } from './signal.ts';
import { alertRuleSchema, alertSchema } from './trend.ts';

/** The item type: the table stream wakes the measuring consumer for new items of it (events/consumers.ts). */
export const MEASUREMENT_ITEM_TYPE = 'RespiratoryRate';

export const MEASUREMENT_STATUSES = ['processing', 'completed', 'failed'] as const;

/**
 * Why a measurement failed. The first three are the measurement's own verdicts; `video_unavailable` (the video was
 * deleted or cannot be decoded) and `measurement_error` (the worker failed on every attempt) are the service's.
 */
export const FAILURE_REASONS = [
  'too_short',
  'too_dark',
  'no_periodic_motion',
  'video_unavailable',
  'measurement_error',
] as const;

const baseline = z.object({ low: z.number(), high: z.number() });

export const measurementSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  pet_id: z.string(),
  video_id: z.string(),
  status: z.enum(MEASUREMENT_STATUSES),
  /** The pet's resting range, fixed when the measurement was requested. */
  breed_baseline: baseline,
  breaths_per_minute: z._default(z.nullable(z.number()), null),
  within_baseline: z._default(z.nullable(z.boolean()), null),
  /** Main-lobe to rest-of-band power of the motion spectrum (docs/respiratory-rate.md#quality). */
  signal_quality: z._default(z.nullable(z.number()), null),
  reason: z._default(z.nullable(z.enum(FAILURE_REASONS)), null),
  /** Attempts the consumer has started (a bound on retries of a failing worker). */
  attempts: z._default(z.number(), 0),
  /** The pet's integrator ids when the measurement was requested: the webhook body carries them. */
  sub_id: z._default(z.nullable(z.string()), null),
  external_owner_id: z._default(z.nullable(z.string()), null),
  /** The pet's alert rule when the measurement was requested (docs/respiratory-rate.md#alerts); null before rules. */
  alert_rule: z._default(z.nullable(alertRuleSchema), null),
  /** Set by the completing write when a rule fired: the `pet.respiratory_rate.alert` event is made of it. */
  alert: z._default(z.nullable(alertSchema), null),
  /** The language of the request: the disclaimer's in the webhook body (a read may ask for another). */
  lang: z._default(z.enum(SUPPORTED_LANGUAGES), 'en'),
  created_at: z.string(),
  generated_at: z._default(z.nullable(z.string()), null),
});
export type Measurement = z.infer<typeof measurementSchema>;

export const asMeasurement = (item: Record<string, unknown>): Measurement => measurementSchema.parse(item);

/** The stored item: keys, type and the record. */
export const measurementRow = (measurement: Measurement) => ({
  ...respiratoryRateKey(measurement.pet_id, measurement.id),
  type: MEASUREMENT_ITEM_TYPE,
  ...measurement,
});

/**
 * The response shape: the spec's record for a completed measurement, with its disclaimer (in `lang`, else the
 * request's language) and validation; the reason instead of a rate when it failed.
 */
export function presentMeasurement(measurement: Measurement, lang?: Language) {
  const common = { id: measurement.id, pet_id: measurement.pet_id, video_id: measurement.video_id };
  if (measurement.status === 'processing')
    return { ...common, status: measurement.status, created_at: measurement.created_at };
  if (measurement.status === 'failed')
    return {
      ...common,
      status: measurement.status,
      reason: measurement.reason,
      signal_quality: measurement.signal_quality,
      created_at: measurement.created_at,
      generated_at: measurement.generated_at,
    };
  return {
    ...common,
    status: measurement.status,
    breaths_per_minute: measurement.breaths_per_minute,
    breed_baseline: measurement.breed_baseline,
    within_baseline: measurement.within_baseline,
    signal_quality: measurement.signal_quality,
    created_at: measurement.created_at,
    generated_at: measurement.generated_at,
    alert: measurement.alert,
    ...measurementHonesty(lang ?? measurement.lang),
  };
}

/** The webhook body of `pet.respiratory_rate.completed`: the record plus the pet's integrator ids. */
export const measurementEventBody = (measurement: Measurement) => ({
  ...presentMeasurement(measurement),
  sub_id: measurement.sub_id,
  external_owner_id: measurement.external_owner_id,
});

/**
 * The durable record of a completed measurement (docs/analysis.md#the-pets-record): the rate as measured and the alert
 * it raised, the video with the SHA-256 of the bytes measured (its served copy), the method's version and who asked. It
 * has the measurement's id.
 */
export function measurementRecord(measurement: Measurement, video: Pick<PetMediaItem, 'id' | 'sha256'>): PetRecord {
  return {
    id: measurement.id,
    pet_id: measurement.pet_id,
    type: 'respiratory_rate',
    created_at: measurement.generated_at ?? measurement.created_at,
    result: {
      breaths_per_minute: measurement.breaths_per_minute,
      breed_baseline: measurement.breed_baseline,
      within_baseline: measurement.within_baseline,
      signal_quality: measurement.signal_quality,
      alert: measurement.alert,
    },
    inputs: [{ kind: 'video', id: video.id, sha256: video.sha256 }],
    provider: null,
    model_id: null,
    method_version: METHOD_VERSION,
    lang: measurement.lang,
    season: null,
    country: null,
    asked_by: { account_id: measurement.account_id, sub_id: measurement.sub_id },
    vet: null,
  };
}
