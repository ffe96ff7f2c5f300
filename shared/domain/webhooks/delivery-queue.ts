// The deliveries queue: one message per attempt of one event at one endpoint; the attempt number travels in it.
import * as z from 'zod/mini';
import { sendMessage, sendMessageBatches, sqsClient } from '../../aws/sqs.ts';
import type { QueueRefusal } from '../../aws/sqs-text.ts';
import type { Deps } from '../../deps.ts';
import { isFinalAttempt, sqsRetryDelaySeconds } from '../../webhooks/backoff.ts';
import { storedEventSchema } from './stored-events.ts';
import type { WebhookDeps } from './webhook.ts';

/**
 * One message of the deliveries queue: the event itself (it already fitted on the events queue), so the worker reads
 * no stored copy; never the secret, which the worker takes from the endpoint at attempt time.
 */
export const deliveryJobSchema = z.object({
  webhook_id: z.string(),
  attempt: z.int().check(z.gte(1)),
  event: storedEventSchema,
  /** Set on a recovery's jobs (recoveries.ts): the recovery counts how each ends. */
  recovery: z.optional(z.object({ id: z.string(), webhook_id: z.string() })),
});

export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/** The next attempt after a failure, or none after the last one. The attempt count travels in the job itself. */
export function retryAfterFailure(
  job: DeliveryJob,
  random: () => number,
): { job: DeliveryJob; delaySeconds: number } | undefined {
  if (isFinalAttempt(job.attempt)) return undefined;
  return { job: { ...job, attempt: job.attempt + 1 }, delaySeconds: sqsRetryDelaySeconds(job.attempt, random) };
}

function deliveriesQueueUrl(config: WebhookDeps['config']): string {
  if (!config.webhookDeliveriesQueueUrl) throw new Error('WEBHOOK_DELIVERIES_QUEUE_URL is not configured');
  return config.webhookDeliveriesQueueUrl;
}

/** Queues one job; throws QueueRefusal when SQS refuses it for good. */
export async function enqueueDelivery(deps: WebhookDeps, job: DeliveryJob, delaySeconds = 0): Promise<void> {
  await sendMessage(sqsClient(deps.config), deliveriesQueueUrl(deps.config), { value: job, delaySeconds });
}

/**
 * Sends jobs in batches of ten and returns the jobs that were not queued, each with SQS's refusal when it refused
 * the job for good (a failed call fails its whole batch, for a passing reason).
 */
export async function enqueueDeliveries(
  deps: WebhookDeps & Pick<Deps, 'log'>,
  jobs: DeliveryJob[],
): Promise<{ job: DeliveryJob; refusal?: QueueRefusal | undefined }[]> {
  const unsent = await sendMessageBatches(
    sqsClient(deps.config),
    deliveriesQueueUrl(deps.config),
    jobs.map((job) => ({ value: job })),
    { onError: (error) => deps.log.error('queueing webhook deliveries failed', { error }) },
  );
  return unsent.map(({ index, refusal }) => ({ job: jobs[index]!, refusal }));
}
