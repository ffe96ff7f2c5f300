// Webhook deliveries as the OpenAPI document describes them (`webhooks`): the resource of the event catalogue plus
// `_metadata`, and the headers every delivery carries (shared/webhooks/transport.ts sends exactly these).
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const metadata = documented(
  z.object({
    event_type: documented(z.string(), { description: 'The event name, e.g. `vote.created`.' }),
    timestamp: documented(z.string(), { description: 'When the event happened (ISO 8601).' }),
    country_code: z.optional(
      documented(z.string(), { description: 'ISO 3166-1 alpha-2 country of the request that caused it, when known.' }),
    ),
  }),
  { id: 'WebhookMetadata', description: 'Added to every delivered resource, last, so no resource field shadows it.' },
);

/** The body of one delivery of `event`: its resource's fields and `_metadata`. */
export function webhookDelivery(event: string, resource: z.ZodMiniObject) {
  return documented(z.extend(resource, { _metadata: metadata }), {
    description: `The ${event} resource, with \`_metadata\`. Chat-service URLs (Slack, Discord, Teams) get a formatted message instead.`,
  });
}

export const WEBHOOK_DELIVERY_HEADERS = [
  {
    name: 'X-Webhook-Signature',
    in: 'header',
    // Endpoints stored before signing existed have no secret and are sent unsigned; every new endpoint has one.
    required: false,
    description:
      '`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the whole `whsec_…` secret. Refuse deliveries more than 300 seconds old or ahead. Stripe-compatible. Sent whenever the endpoint has a signing secret (every endpoint created through the API).',
    schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
  },
  {
    name: 'X-Webhook-Id',
    in: 'header',
    required: true,
    description: 'The event id, the same on every retry and redelivery: deduplicate by it.',
    schema: { type: 'string' },
  },
  {
    name: 'X-Webhook-Event',
    in: 'header',
    required: true,
    description: 'The event name.',
    schema: { type: 'string' },
  },
];
