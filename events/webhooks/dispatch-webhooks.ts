// Events queue → deliveries queue: each domain event fans out to one delivery job per subscribed endpoint
// (domain/webhooks/dispatch.ts), the events of a batch sharing their requests. An event whose jobs are not all queued
// fails and is fanned out again later; receivers dedupe by X-Webhook-Id. An event whose jobs SQS refused for good goes
// to the events queue's dead-letter queue at once, with the reason.
import { sendToDeadLetterQueue } from '../../shared/aws/sqs.ts';
import { getDeps } from '../../shared/deps.ts';
import { dispatchBatch } from '../../shared/domain/webhooks/dispatch.ts';
import { domainEventMessage } from '../../shared/domain/webhooks/stored-events.ts';
import { queueConsumer } from '../../shared/events/consumer.ts';

export const handler = queueConsumer({
  id: 'webhooks.dispatch',
  message: domainEventMessage,
  deps: () => {
    const deps = getDeps();
    return { ...deps, dispatch: dispatchBatch(deps) };
  },
  handle: (event, deps) => deps.dispatch(event),
  deadLetter: sendToDeadLetterQueue,
});
