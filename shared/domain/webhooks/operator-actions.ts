// What an integrator can ask of one endpoint by hand: a test event, and the redelivery of an event it had before.
import { conflict, notFound } from '../../errors.ts';
import { firstLoggedAttempt } from './attempts.ts';
import { enqueueDelivery } from './delivery-queue.ts';
import { getOwnWebhook } from './endpoints.ts';
import { findStoredEvent, type StoredEvent, TEST_EVENT_TYPE } from './stored-events.ts';
import type { WebhookDeps, WebhookItem } from './webhook.ts';

function requireEnabled(webhook: WebhookItem): void {
  if (webhook.status !== 'enabled') {
    throw conflict(`Webhook ${webhook.id} is disabled and receives no events; delete it and register it again`, {
      code: 'webhook_disabled',
    });
  }
}

/** Queues a `webhook.test` event for this endpoint only, whatever its enabled_events. */
export async function sendTestEvent(deps: WebhookDeps, accountId: string, webhookId: string): Promise<StoredEvent> {
  requireEnabled(await getOwnWebhook(deps, accountId, webhookId));
  const event: StoredEvent = {
    id: `evt_test_${deps.newId()}`,
    event_type: TEST_EVENT_TYPE,
    account_id: accountId,
    occurred_at: deps.now().toISOString(),
    country_code: null,
    resource: { webhook_id: webhookId, message: 'This is a test event sent from the webhook API' },
  };
  await enqueueDelivery(deps, { webhook_id: webhookId, attempt: 1, event });
  return event;
}

/** Queues an event this endpoint has had before, with a fresh attempt count. */
export async function redeliverEvent(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  eventId: string,
): Promise<StoredEvent> {
  requireEnabled(await getOwnWebhook(deps, accountId, webhookId));
  const logged = await firstLoggedAttempt(deps, webhookId, eventId);
  const event = logged && (logged.event ?? (await findStoredEvent(deps, accountId, eventId)));
  if (!event) throw notFound(`Webhook ${webhookId} has no delivery of event ${eventId} in the last 30 days`);
  await enqueueDelivery(deps, { webhook_id: webhookId, attempt: 1, event });
  return event;
}
