// Events as webhooks deliver them. Delivery jobs carry the event and the attempt log keeps it (redelivery reads it
// there); until 2026-11-25 the dispatcher also stored each event once, and attempts logged until then still need it.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { webhookEventKey } from '../../db/keys.ts';
import { eventEnvelope } from '../../events/catalogue.ts';
import type { WebhookDeps } from './webhook.ts';

/** Sent only by POST /webhooks/{id}/test, to that endpoint alone. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The attempt log (with its events) expires after 30 days; redelivery works within that window. */
export const RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** A message of the events queue (`DomainEvent` of events/catalogue.ts); the type stays a string so any name routes. */
export const domainEventMessage = eventEnvelope;

export type IncomingEvent = z.infer<typeof domainEventMessage>;

/** What a delivery needs of an event; `event_type` because every item's `type` names its entity. */
export const storedEventSchema = z.extend(z.omit(eventEnvelope, { type: true }), { event_type: z.string() });

export type StoredEvent = z.infer<typeof storedEventSchema>;

export const expiresAt = (now: Date) => Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;

export const storedEventOf = (event: IncomingEvent): StoredEvent => ({
  id: event.id,
  event_type: event.type,
  account_id: event.account_id,
  occurred_at: event.occurred_at,
  country_code: event.country_code,
  resource: event.resource,
});

/** The event as the dispatcher stored it until 2026-11-25 (kept 30 days), for attempts logged without it. */
export async function findStoredEvent(
  deps: WebhookDeps,
  accountId: string,
  eventId: string,
): Promise<StoredEvent | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: webhookEventKey(accountId, eventId) }),
  );
  return Item ? storedEventSchema.parse(Item) : undefined;
}
