// What the respiratory-rate routes answer, as schemas: the handlers' contracts and the OpenAPI document use them.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { FAILURE_REASONS } from './measurement.ts';

const common = { id: z.string(), pet_id: z.string(), video_id: z.string() };
const baseline = documented(z.object({ low: z.number(), high: z.number() }), {
  description: "The breed's resting breaths per minute, fixed when the measurement was requested.",
});

export const measurementBody = documented(
  z.discriminatedUnion('status', [
    z.object({ ...common, status: z.literal('processing'), created_at: z.string() }),
    z.object({
      ...common,
      status: z.literal('failed'),
      reason: z.nullable(z.enum(FAILURE_REASONS)),
      signal_quality: z.nullable(z.number()),
      created_at: z.string(),
      generated_at: z.nullable(z.string()),
    }),
    z.object({
      ...common,
      status: z.literal('completed'),
      breaths_per_minute: z.nullable(z.number()),
      breed_baseline: baseline,
      within_baseline: z.nullable(z.boolean()),
      signal_quality: documented(z.nullable(z.number()), {
        description: 'Main-lobe to rest-of-band power of the motion spectrum (docs/respiratory-rate.md).',
      }),
      created_at: z.string(),
      generated_at: z.nullable(z.string()),
    }),
  ]),
  {
    id: 'RespiratoryRate',
    description: '`processing`, then `completed` with the rate or `failed` with the reason (delivered by webhook too).',
  },
);
