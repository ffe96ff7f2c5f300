// Fan-out: each domain event is stored once (retries and redeliveries rebuild the body from it) and becomes one
// first-attempt delivery job per enabled endpoint of its account subscribed to its name.
import type { Deps } from '../../deps.ts';
import { type DeliveryJob, enqueueDeliveries } from './delivery-queue.ts';
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

/** Queues the event's jobs; throws (retryably) when any was not queued, so the whole event is fanned out again. */
export async function dispatchEvent(deps: WebhookDeps & Pick<Deps, 'log'>, event: IncomingEvent): Promise<void> {
  const jobs = await deliveryJobsFor(deps, event);
  const unsent = await enqueueDeliveries(deps, jobs);
  if (unsent.length > 0) throw new Error(`${unsent.length} of ${jobs.length} delivery jobs of ${event.id} not queued`);
  deps.log.info('webhook deliveries queued', { eventId: event.id, jobs: jobs.length });
}
