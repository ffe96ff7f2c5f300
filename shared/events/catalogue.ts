// The event catalogue: every event the service emits, with the schema of its resource and the item type whose
// committed writes produce it. One place, read by the event router (what to emit), the stream filter in infra (which
// items wake the router), the webhook topics route (what can be subscribed to), the webhook dispatcher and the tests.
import * as z from 'zod/mini';
import { publicRequestResource } from '../domain/public-requests/request.ts';
import { reviewResource } from '../domain/reviews/review.ts';
import { alertSchema } from '../domain/respiration/trend.ts';
import {
  ATTEMPTS_EXHAUSTED,
  attemptsExhaustedResource,
  ENDPOINT_DISABLED,
  endpointDisabledResource,
} from '../domain/webhooks/operational-events.ts';
import { MAX_ATTEMPTS } from '../webhooks/backoff.ts';

const vote = z.object({
  id: z.number(),
  image_id: z.string(),
  sub_id: z.nullable(z.string()),
  value: z.number(),
  country_code: z.nullable(z.string()),
  created_at: z.string(),
});

const favourite = z.object({
  id: z.string(),
  image_id: z.string(),
  sub_id: z.nullable(z.string()),
  created_at: z.string(),
});

/** Pet photos and videos carry their pet and the pet's integrator ids, so a receiver can follow its own users. */
const petMedia = {
  pet_id: z.optional(z.string()),
  kind: z.optional(z.enum(['photo', 'video'])),
  external_owner_id: z.optional(z.nullable(z.string())),
};

const image = z.object({
  id: z.string(),
  /** Null for pet media: it is private, and a client gets a short-lived URL from GET /pets/{petId}/images/{id}. */
  url: z.nullable(z.string()),
  sub_id: z.nullable(z.string()),
  breed_ids: z.array(z.string()),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
  mime_type: z.nullable(z.string()),
  status: z.string(),
  created_at: z.string(),
  ...petMedia,
});

const imageProcessed = z.object({
  id: z.string(),
  /** Uploads: approved or rejected; pet media: ready or rejected. */
  status: z.enum(['approved', 'ready', 'rejected']),
  reason: z.nullable(z.string()),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
  sub_id: z.optional(z.nullable(z.string())),
  duration_s: z.optional(z.nullable(z.number())),
  codec: z.optional(z.nullable(z.string())),
  ...petMedia,
});

const imageLabels = z.object({
  id: z.string(),
  labels: z.array(z.object({ name: z.string(), confidence: z.number() })),
  source: z.string(),
  sub_id: z.optional(z.nullable(z.string())),
  ...petMedia,
});

/** A finished respiratory-rate measurement (early access): the rate, or why there is none. */
const respiratoryRate = z.object({
  id: z.string(),
  pet_id: z.string(),
  video_id: z.string(),
  status: z.enum(['completed', 'failed']),
  breaths_per_minute: z.optional(z.nullable(z.number())),
  breed_baseline: z.optional(z.object({ low: z.number(), high: z.number() })),
  within_baseline: z.optional(z.nullable(z.boolean())),
  reason: z.optional(z.nullable(z.string())),
  signal_quality: z.nullable(z.number()),
  created_at: z.string(),
  generated_at: z.nullable(z.string()),
  /** Completed only: in the request's language, and what the measurement was checked against. */
  disclaimer: z.optional(z.string()),
  validation: z.optional(z.string()),
  /** Completed only: the alert rules it broke, or null. */
  alert: z.optional(z.nullable(alertSchema)),
  sub_id: z.nullable(z.string()),
  external_owner_id: z.nullable(z.string()),
});

/** A completed measurement that broke the pet's alert rule: the measurement, with the rules fired and its baseline. */
const respiratoryRateAlert = z.object({
  ...respiratoryRate.shape,
  status: z.literal('completed'),
  breaths_per_minute: z.number(),
  alert: alertSchema,
});

export const EVENT_CATALOGUE = {
  'vote.created': { description: 'a vote was recorded', resource: vote, sourceItems: ['Vote'] },
  'favourite.created': { description: 'a favourite was recorded', resource: favourite, sourceItems: ['Favourite'] },
  'image.uploaded': { description: 'an image upload succeeded', resource: image, sourceItems: ['Image', 'PetMedia'] },
  'image.processed': {
    description: 'an image finished validation (approved or rejected)',
    resource: imageProcessed,
    sourceItems: ['Image', 'PetMedia'],
  },
  'image.labels_created': {
    description: 'labels were generated for an image',
    resource: imageLabels,
    sourceItems: ['Image', 'PetMedia'],
  },
  'image.public_request.created': {
    description: 'an account asked for one of its uploads to become public',
    resource: publicRequestResource,
    sourceItems: ['ImagePublicRequest'],
  },
  'image.public_request.approved': {
    description: 'an administrator approved the request: the photo is now in image search, with its tags',
    resource: publicRequestResource,
    sourceItems: ['ImagePublicRequest'],
  },
  'image.public_request.denied': {
    description: 'an administrator denied the request (admin_message says why)',
    resource: publicRequestResource,
    sourceItems: ['ImagePublicRequest'],
  },
  'pet.bcs.review_requested': {
    description: 'a body condition score has gone to a vet',
    resource: reviewResource,
    sourceItems: ['BcsReview'],
  },
  'pet.bcs.reviewed': {
    description: 'a vet completed or rejected that review',
    resource: reviewResource,
    sourceItems: ['BcsReview'],
  },
  'pet.respiratory_rate.completed': {
    description: 'a respiratory rate measurement finished (status completed with the rate, or failed with the reason)',
    resource: respiratoryRate,
    sourceItems: ['RespiratoryRate'],
  },
  'pet.respiratory_rate.alert': {
    description:
      "a completed respiratory-rate measurement broke the pet's alert rule: above its threshold, or risen over the pet's own baseline by more than its percent",
    resource: respiratoryRateAlert,
    sourceItems: ['RespiratoryRate'],
  },
  [ENDPOINT_DISABLED]: {
    description:
      'another endpoint of the account was disabled (10 failed attempts in a row, or by an operator): its id, URL, last error and time',
    resource: endpointDisabledResource,
    sourceItems: ['Webhook'],
    sourceImage: { status: { S: ['disabled'] } },
  },
  [ATTEMPTS_EXHAUSTED]: {
    description:
      'all 3 attempts of an event at another endpoint of the account failed: the event id and type and the last reply status',
    resource: attemptsExhaustedResource,
    sourceItems: ['WebhookDelivery'],
    sourceImage: { attempt: { N: [String(MAX_ATTEMPTS)] }, succeeded: { BOOL: [false] } },
  },
} as const;

export type EventName = keyof typeof EVENT_CATALOGUE;
export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as EventName[];

type SourcePattern = { type: { S: string[] } } & Record<string, unknown>;

/**
 * The new images (Lambda filter syntax) whose committed writes can become events: the table stream's filter wakes the
 * router for these only. Item types that count whatever they hold share one pattern; those that count only in some
 * states (an endpoint once disabled, an event's last failed attempt) have one each, so the router never wakes for
 * the slot writes and attempt log of ordinary deliveries, and the event source stays within Lambda's default five
 * filters.
 */
export const EVENT_SOURCE_PATTERNS: SourcePattern[] = (() => {
  const entries: { sourceItems: readonly string[]; sourceImage?: Record<string, unknown> }[] =
    Object.values(EVENT_CATALOGUE);
  const anyState = entries.filter((e) => !e.sourceImage).flatMap((e) => e.sourceItems);
  return [
    { type: { S: [...new Set(anyState)] } },
    ...entries.flatMap((e) =>
      e.sourceImage ? e.sourceItems.map((type) => ({ type: { S: [type] }, ...e.sourceImage })) : [],
    ),
  ];
})();

/** The envelope as read back from the events queue (any event name; the resource as stored). */
export const eventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  account_id: z.string(),
  occurred_at: z.string(),
  country_code: z.nullable(z.string()),
  resource: z.record(z.string(), z.unknown()),
});

/** What travels on the events queue: one committed change of one account. */
export interface DomainEvent<N extends EventName = EventName> {
  /** Stable per committed change, so a redelivered stream record produces the same id (receivers dedupe by it). */
  id: string;
  type: N;
  account_id: string;
  occurred_at: string;
  country_code: string | null;
  resource: z.output<(typeof EVENT_CATALOGUE)[N]['resource']>;
}
