// Fan-out: each domain event becomes one first-attempt delivery job, carrying the event, per enabled endpoint of its
// account subscribed to its name, except the endpoint an operational event is about (the attempt log keeps the event for redelivery, so nothing stores it here). The
// events of one consumer batch share their requests: one Query per account and event name, and the jobs of every
// event queued together in batches of ten.
import type { Deps } from '../../deps.ts';
import { turnBatch } from '../../webhooks/turn-batch.ts';
import { type DeliveryJob, enqueueDeliveries } from './delivery-queue.ts';
import { subscribedWebhooks } from './endpoints.ts';
import { endpointConcerned } from './operational-events.ts';
import { type IncomingEvent, storedEventOf } from './stored-events.ts';
import type { WebhookDeps, WebhookItem } from './webhook.ts';

type DispatchDeps = WebhookDeps & Pick<Deps, 'log'>;

/**
 * The fan-out of one consumer batch (create one per invocation): `dispatch(event)` for each event, all started in the
 * same turn. An event whose jobs are not all queued throws, so the whole event is fanned out again; when SQS refused
 * every unqueued job as the sender's fault, it throws that QueueRefusal instead, which no retry would change.
 */
export function dispatchBatch(deps: DispatchDeps): (event: IncomingEvent) => Promise<void> {
  const subscribed = turnBatch(async (_key, events: IncomingEvent[]): Promise<WebhookItem[][]> => {
    const webhooks = await subscribedWebhooks(deps, events[0]!.account_id, events[0]!.type);
    return events.map(() => webhooks);
  });
  /** Per event: its jobs that were not queued, each with SQS's refusal if it refused the job for good. */
  const enqueue = turnBatch(async (_key, jobsPerEvent: DeliveryJob[][]) => {
    const unsent = new Map((await enqueueDeliveries(deps, jobsPerEvent.flat())).map((u) => [u.job, u.refusal]));
    return jobsPerEvent.map((jobs) => jobs.filter((job) => unsent.has(job)).map((job) => unsent.get(job)));
  });

  return async (event) => {
    const concerned = endpointConcerned(event);
    const webhooks = (await subscribed(`${event.account_id}\n${event.type}`, event)).filter((w) => w.id !== concerned);
    if (webhooks.length === 0) return;
    const delivered = storedEventOf(event);
    const jobs = webhooks.map((webhook): DeliveryJob => ({ webhook_id: webhook.id, attempt: 1, event: delivered }));
    const unsent = await enqueue('', jobs);
    // Refused for good, every one: the event goes to the dead-letter queue now (shared/events/consumer.ts).
    const [refusal] = unsent;
    if (refusal && unsent.every(Boolean)) throw refusal;
    if (unsent.length > 0)
      throw new Error(`${unsent.length} of ${jobs.length} delivery jobs of ${event.id} not queued`);
    deps.log.info('webhook deliveries queued', { eventId: event.id, jobs: jobs.length });
  };
}
