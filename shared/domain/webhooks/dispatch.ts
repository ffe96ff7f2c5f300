// Fan-out: each domain event is stored once (retries and redeliveries rebuild the body from it) and becomes one
// first-attempt delivery job per enabled endpoint of its account subscribed to its name.
import type { DeliveryJob } from './delivery-queue.ts';
import { subscribedWebhooks } from './endpoints.ts';
import { type IncomingEvent, storedEventOf, storeEvent } from './stored-events.ts';
import type { WebhookDeps } from './webhook.ts';

export async function deliveryJobsFor(deps: WebhookDeps, event: IncomingEvent): Promise<DeliveryJob[]> {
  const webhooks = await subscribedWebhooks(deps, event.account_id, event.type);
  if (webhooks.length === 0) return [];
  await storeEvent(deps, storedEventOf(event));
  return webhooks.map((webhook) => ({
    event_id: event.id,
    webhook_id: webhook.id,
    account_id: event.account_id,
    attempt: 1,
  }));
}
