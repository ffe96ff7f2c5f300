// Events queue → deliveries queue: each domain event fans out to one delivery job per subscribed endpoint
// (domain/webhooks/dispatch.ts). An event whose jobs are not all queued fails and is fanned out again later;
// receivers dedupe by X-Webhook-Id.
import { dispatchEvent } from '../../shared/domain/webhooks/dispatch.ts';
import { domainEventMessage } from '../../shared/domain/webhooks/stored-events.ts';
import { queueConsumer } from '../../shared/events/consumer.ts';

export const handler = queueConsumer({
  id: 'webhooks.dispatch',
  message: domainEventMessage,
  handle: (event, deps) => dispatchEvent(deps, event),
});
