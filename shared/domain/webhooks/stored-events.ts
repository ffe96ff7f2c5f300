// Events as kept for redelivery: stored once per event, 30 days (delivery jobs carry the event itself).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../db/batch.ts';
import * as z from 'zod/mini';
import { webhookEventKey } from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import { eventEnvelope } from '../../events/catalogue.ts';
import type { WebhookDeps } from './webhook.ts';

/** Sent only by POST /webhooks/{id}/test, to that endpoint alone. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Stored events and the attempt log expire after 30 days; redelivery works within that window. */
const RETENTION_SECONDS = 30 * 24 * 60 * 60;

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

/** Idempotent: a redelivered event has the same id and content. One BatchWriteItem per 25 events. */
export async function storeEvents(deps: WebhookDeps, events: StoredEvent[]): Promise<void> {
  const expires = expiresAt(deps.now());
  await batchWriteAll(
    deps.ddb,
    deps.config.tableName,
    events.map((event) => ({
      PutRequest: {
        Item: {
          ...webhookEventKey(event.account_id, event.id),
          type: 'WebhookEvent',
          ...event,
          [TTL_ATTRIBUTE]: expires,
        },
      },
    })),
  );
}

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
