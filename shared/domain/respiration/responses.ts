// What the respiratory-rate routes answer, as schemas: the handlers' contracts and the OpenAPI document use them.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { FAILURE_REASONS } from './measurement.ts';
import { alertSchema } from './trend.ts';

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
      alert: documented(z.nullable(alertSchema), {
        id: 'RespiratoryRateAlert',
        description:
          "The pet's alert rule this rate broke (`rules`: `threshold`, `rise` or both), the rule in force when it was requested, the baseline it was judged against (null before 3 earlier completed measurements) and the change in percent; null when no rule fired. Raised once, as `pet.respiratory_rate.alert`.",
      }),
      disclaimer: documented(z.string(), {
        description: 'In the requested language: a rate measured from a video, not a veterinary diagnosis; see a vet.',
      }),
      validation: documented(z.string(), {
        description:
          'One sentence on what the measurement was checked against, with a link into docs/respiratory-rate.md.',
      }),
    }),
  ]),
  {
    id: 'RespiratoryRate',
    description: '`processing`, then `completed` with the rate or `failed` with the reason (delivered by webhook too).',
  },
);

const trendBody = documented(
  z.object({
    latest: z.nullable(z.object({ id: z.string(), breaths_per_minute: z.number(), created_at: z.string() })),
    baseline: documented(
      z.object({
        breaths_per_minute: z.nullable(z.number()),
        measurements: documented(z.int(), {
          description: 'How many measurements it is the median of (or, when null, how many there were).',
        }),
        reason: documented(z.nullable(z.string()), {
          description: 'Why there is no baseline yet; null when there is one.',
        }),
      }),
      {
        description:
          "The pet's own rate: the low median of up to 7 completed measurements before the latest, at least 3 needed.",
      },
    ),
    change: documented(z.nullable(z.object({ breaths_per_minute: z.number(), percent: z.number() })), {
      description: 'The latest rate against the baseline, to one decimal; null without a baseline.',
    }),
    days_covered: documented(z.number(), {
      description: 'Days from the oldest measurement the trend uses to the latest, to one decimal.',
    }),
  }),
  { id: 'RespiratoryRateTrend' },
);

export const respiratoryRateList = documented(
  z.object({
    trend: trendBody,
    measurements: documented(z.array(measurementBody), { description: 'Completed measurements, newest first.' }),
  }),
  { id: 'RespiratoryRateList' },
);
