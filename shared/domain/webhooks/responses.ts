// What the webhook routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { WEBHOOK_STATUSES } from './webhook.ts';

export const webhookBody = documented(
  z.object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    enabled_events: documented(z.array(z.string()), { description: 'Event names (GET /webhooks/topics).' }),
    status: z.enum(WEBHOOK_STATUSES),
    created_at: z.string(),
    updated_at: z.string(),
    disabled_at: z.optional(z.string()),
    disabled_reason: z.optional(
      documented(z.string(), { description: 'e.g. 10 failed attempts in a row, or an operator’s reason.' }),
    ),
    consecutive_failures: z.int(),
  }),
  { id: 'Webhook' },
);

const signingSecret = documented(z.string(), {
  description:
    'The `whsec_…` key of X-Webhook-Signature and of the Standard Webhooks headers: shown here only, stored encrypted, never read back.',
});

export const createdWebhookBody = documented(z.extend(webhookBody, { signing_secret: signingSecret }), {
  id: 'CreatedWebhook',
});

export const rotatedSecretBody = z.object({ id: z.string(), signing_secret: signingSecret });

export const deletedWebhookBody = z.object({ message: z.literal('SUCCESS'), id: z.string() });

export const queuedEventBody = documented(
  z.object({ message: z.literal('QUEUED'), id: z.string(), event_id: z.string(), event_type: z.string() }),
  { id: 'QueuedDelivery', description: 'The event is on its way to this endpoint only.' },
);

export const topicList = z.array(
  documented(z.object({ name: z.string(), description: z.string() }), { id: 'WebhookTopic' }),
);

const replyExcerpt = documented(
  z.nullable(
    z.object({
      headers: documented(z.record(z.string(), z.string()), {
        description:
          'Content-Type, Content-Length, Location, Retry-After and X-Request-Id, when sent (256 characters each).',
      }),
      body: documented(z.nullable(z.string()), {
        description: 'The first 4 KiB of the reply as UTF-8, cut before a split character; null when empty or binary.',
      }),
      body_binary: documented(z.boolean(), { description: 'The reply was not UTF-8 text, so none of it is shown.' }),
      body_truncated: documented(z.boolean(), { description: 'The reply was longer than `body`.' }),
    }),
  ),
  { description: 'What the receiver answered; null when no reply came (or the attempt predates 2026-11-28).' },
);

const deliveryAttempt = documented(
  z.object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    attempt: documented(z.int(), { description: '1 for the first try; retries count up.' }),
    attempted_at: z.string(),
    status_code: documented(z.nullable(z.int()), { description: "The receiver's status; null when none came." }),
    error: z.nullable(z.string()),
    duration_ms: z.number(),
    succeeded: z.boolean(),
    response: replyExcerpt,
  }),
  { id: 'DeliveryAttempt' },
);

export const deliveryAttemptList = z.array(deliveryAttempt);

export const eventDeliveryBody = documented(
  z.object({
    event_id: z.string(),
    event_type: z.string(),
    delivered: documented(z.boolean(), { description: 'One of the attempts succeeded.' }),
    attempts: z.array(deliveryAttempt),
  }),
  { id: 'EventDelivery' },
);

export const recoveryBody = documented(
  z.object({
    id: z.string(),
    webhook_id: documented(z.string(), { description: 'The endpoint whose failed events are recovered.' }),
    to_endpoint_id: documented(z.string(), { description: 'The endpoint they are sent to (this one by default).' }),
    since: z.string(),
    until: z.string(),
    created_at: z.string(),
    state: documented(z.enum(['running', 'completed']), {
      description: '`completed` once every queued event was delivered or failed all its attempts.',
    }),
    queued: documented(z.int(), { description: 'Events queued again, each once.' }),
    delivered: z.int(),
    failed: z.int(),
    skipped_unsubscribed: documented(z.int(), {
      description: 'Failed events of a type the target endpoint is not subscribed to: not sent, still recoverable.',
    }),
  }),
  { id: 'WebhookRecovery' },
);
