// Events queue → deliveries queue. Each domain event is stored once (retries and redeliveries rebuild the body from
// it) and fans out to one delivery job per enabled endpoint of its account subscribed to its name. A record whose
// jobs are not all queued is reported failed and fanned out again later; receivers dedupe by X-Webhook-Id.
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { getDeps, type Deps } from '../../shared/deps.ts';
import {
  domainEventMessage,
  enqueueDeliveries,
  storedEventOf,
  storeEvent,
  subscribedWebhooks,
  type DeliveryJob,
} from '../../shared/domain/webhooks/endpoints.ts';

interface PendingJob {
  messageId: string;
  job: DeliveryJob;
}

async function jobsFor(deps: Deps, record: SQSRecord): Promise<PendingJob[]> {
  const event = domainEventMessage.parse(JSON.parse(record.body));
  const webhooks = await subscribedWebhooks(deps, event.account_id, event.type);
  if (webhooks.length === 0) return [];
  await storeEvent(deps, storedEventOf(event));
  return webhooks.map((webhook) => ({
    messageId: record.messageId,
    job: { event_id: event.id, webhook_id: webhook.id, account_id: event.account_id, attempt: 1 },
  }));
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = getDeps();
  const failed = new Set<string>();
  const fannedOut = await Promise.all(
    event.Records.map((record) =>
      jobsFor(deps, record).catch((error: unknown) => {
        deps.log.error('fanning out an event to webhooks failed', { messageId: record.messageId, error });
        failed.add(record.messageId);
        return [];
      }),
    ),
  );
  const jobs = fannedOut.flat();
  for (const { messageId } of await enqueueDeliveries(deps, jobs)) failed.add(messageId);
  deps.log.info('webhook deliveries queued', {
    events: event.Records.length,
    jobs: jobs.length,
    failedEvents: failed.size,
  });
  return { batchItemFailures: [...failed].map((messageId) => ({ itemIdentifier: messageId })) };
}
