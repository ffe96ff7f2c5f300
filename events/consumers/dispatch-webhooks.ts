// Events queue → deliveries queue. Each domain event is stored once (retries and redeliveries rebuild the body from
// it) and fans out to one delivery job per enabled endpoint of its account subscribed to its name. A record whose
// jobs are not all queued is reported failed and fanned out again later; receivers dedupe by X-Webhook-Id.
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { getDeps } from '../../shared/deps.ts';
import { type DeliveryJob, enqueueDeliveries } from '../../shared/domain/webhooks/delivery-queue.ts';
import { deliveryJobsFor } from '../../shared/domain/webhooks/dispatch.ts';
import { domainEventMessage } from '../../shared/domain/webhooks/stored-events.ts';
import type { Deps } from '../../shared/deps.ts';

interface PendingJob {
  messageId: string;
  job: DeliveryJob;
}

async function jobsFor(deps: Deps, record: SQSRecord): Promise<PendingJob[]> {
  const jobs = await deliveryJobsFor(deps, domainEventMessage.parse(JSON.parse(record.body)));
  return jobs.map((job) => ({ messageId: record.messageId, job }));
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
