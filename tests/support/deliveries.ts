// The delivery process's tests (tests/handler/webhooks/deliver-*.test.ts): one endpoint wh-1 of the account acc-user
// in the in-memory delivery store, jobs of one vote event, the deliverer's dependencies, and the retries it queued.
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { createDeliveryHandler } from '../../events/webhooks/deliver-webhook.ts';
import { type Config, loadConfig } from '../../shared/config.ts';
import { getDeps } from '../../shared/deps.ts';
import type { DeliveryDeps } from '../../shared/domain/webhooks/deliver.ts';
import type { DeliveryJob } from '../../shared/domain/webhooks/delivery-queue.ts';
import type { StoredEvent } from '../../shared/domain/webhooks/stored-events.ts';
import { callbackLogger } from '../../shared/log.ts';
import type { InMemoryDeliveryStore } from './in-memory-delivery-store.ts';

export const DELIVERY_NOW = new Date('2026-11-22T10:00:00.000Z');
export const DELIVERIES_QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries';
export const DELIVERIES_DLQ = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries-dlq';

export const storedEvent: StoredEvent = {
  id: 'evt_1',
  event_type: 'vote.created',
  account_id: 'acc-user',
  occurred_at: '2026-11-22T09:59:58.000Z',
  country_code: 'GB',
  resource: {
    id: 42,
    image_id: 'img-1',
    sub_id: null,
    value: 1,
    country_code: 'GB',
    created_at: '2026-11-22T09:59:58.000Z',
  },
};

/** Attempt `attempt` of the event `eventId` at wh-1. */
export const aDeliveryJob = (attempt = 1, eventId = 'evt_1'): DeliveryJob => ({
  webhook_id: 'wh-1',
  attempt,
  event: { ...storedEvent, id: eventId },
});

/** First attempts of `count` events, `<prefix>_1` on. */
export const deliveryJobs = (count: number, prefix = 'evt') =>
  Array.from({ length: count }, (_, n) => aDeliveryJob(1, `${prefix}_${n + 1}`));

type Parts = Pick<DeliveryDeps, 'store' | 'cipher' | 'notifyOwner' | 'post'>;

/** The deliverer's dependencies around `parts`: loopback receivers allowed, ids att-1 on, no retry jitter. */
export function deliveryDeps(parts: Parts, config: Partial<Config> = {}): DeliveryDeps {
  let ids = 0;
  return {
    ...getDeps(),
    ...parts,
    config: {
      ...loadConfig(),
      allowLoopbackWebhooks: true,
      webhookDeliveriesQueueUrl: DELIVERIES_QUEUE,
      deadLetterQueueUrl: DELIVERIES_DLQ,
      ...config,
    },
    log: callbackLogger(() => {}),
    now: () => DELIVERY_NOW,
    newId: () => `att-${++ids}`,
    random: () => 0,
  };
}

export const sqsEvent = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, n) => ({ messageId: `msg-${n + 1}`, body })) }) as unknown as SQSEvent;

/** One invocation of the deliverer with `jobs` as its batch: what it answers SQS. */
export const deliverBatch = (deps: () => DeliveryDeps, jobs: DeliveryJob[]) =>
  createDeliveryHandler(deps)(sqsEvent(...jobs.map((j) => JSON.stringify(j))));

/** The jobs sent to the deliveries queue (retries and jobs held back), with their delays. */
export const queuedJobs = (sqs: AwsClientStub<SQSClient>) =>
  sqs.commandCalls(SendMessageCommand).map((c) => ({
    job: JSON.parse(c.args[0].input.MessageBody!) as DeliveryJob,
    delaySeconds: c.args[0].input.DelaySeconds,
  }));

/** The endpoint wh-1 as the store holds it. */
export const storedEndpoint = (store: InMemoryDeliveryStore) => store.get('acc-user', 'wh-1');
