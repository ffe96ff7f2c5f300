import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { sqsClient } from '../../aws/sqs.ts';
import { pageAccountItems } from '../../db/account-items.ts';
import { isConditionFailure } from '../../db/errors.ts';
import { transact } from '../../db/transact.ts';
import { statChange } from '../../db/account-stats.ts';
import { accountStatsKey } from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import {
  accountWebhooksPartition,
  webhookAttemptIndex,
  webhookAttemptKey,
  webhookAttemptsPartition,
  webhookEventAttemptsPartition,
  webhookEventKey,
  webhookKey,
} from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { checkWebhookUrl, type WebhookUrlRejection } from '../../webhooks/address-guard.ts';
import { isFinalAttempt, sqsRetryDelaySeconds } from '../../webhooks/backoff.ts';
import type { SecretCipher } from '../../webhooks/secret-cipher.ts';
import { generateSigningSecret } from '../../webhooks/signature.ts';
import { eventEnvelope } from '../../events/catalogue.ts';
import type { NewWebhook } from './input.ts';

/** Spec: five endpoints per account, disabled ones included. */
export const WEBHOOK_LIMIT = 5;
/** Spec: the endpoint is disabled after this many failed attempts in a row. */
export const DISABLE_AFTER_CONSECUTIVE_FAILURES = 10;
/** Sent only by POST /webhooks/{id}/test, to that endpoint alone. */
export const TEST_EVENT_TYPE = 'webhook.test';
/** Stored events and the attempt log expire after 30 days; redelivery works within that window. */
const RETENTION_SECONDS = 30 * 24 * 60 * 60;

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;

const webhookItemSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  url: z.string(),
  description: z.string(),
  enabled_events: z.array(z.string()),
  status: z.enum(WEBHOOK_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  disabled_at: z.optional(z.string()),
  disabled_reason: z.optional(z.string()),
  consecutive_failures: z._default(z.number(), 0),
  /** Absent on endpoints created before signing existed: they are sent unsigned until their secret is rotated. */
  encrypted_secret: z.optional(z.string()),
});
export type WebhookItem = z.infer<typeof webhookItemSchema>;

/** The endpoint as the API shows it; the secret is returned only by create and rotate, never read back. */
export const presentWebhook = (w: WebhookItem) => ({
  id: w.id,
  url: w.url,
  description: w.description,
  enabled_events: w.enabled_events,
  status: w.status,
  created_at: w.created_at,
  updated_at: w.updated_at,
  ...(w.disabled_at && { disabled_at: w.disabled_at }),
  ...(w.disabled_reason && { disabled_reason: w.disabled_reason }),
  consecutive_failures: w.consecutive_failures,
});

/** A message of the events queue (`DomainEvent` of events/catalogue.ts); the type stays a string so any name routes. */
export const domainEventMessage = eventEnvelope;
export type IncomingEvent = z.infer<typeof domainEventMessage>;

/** What a delivery needs of an event; `event_type` because every item's `type` names its entity. */
const storedEventSchema = z.extend(z.omit(eventEnvelope, { type: true }), { event_type: z.string() });
export type StoredEvent = z.infer<typeof storedEventSchema>;

/** One message of the deliveries queue: never the secret, which is read at attempt time. */
export const deliveryJobSchema = z.object({
  event_id: z.string(),
  webhook_id: z.string(),
  account_id: z.string(),
  attempt: z.int().check(z.gte(1)),
});
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

const attemptItemSchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number(),
  attempted_at: z.string(),
  status_code: z.nullable(z.number()),
  error: z.nullable(z.string()),
  duration_ms: z.number(),
  succeeded: z.boolean(),
});
export type DeliveryAttempt = z.infer<typeof attemptItemSchema>;

export const presentAttempt = (a: DeliveryAttempt) => ({
  id: a.id,
  event_id: a.event_id,
  event_type: a.event_type,
  attempt: a.attempt,
  attempted_at: a.attempted_at,
  status_code: a.status_code,
  error: a.error,
  duration_ms: a.duration_ms,
  succeeded: a.succeeded,
});

type WebhookDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random'>;

const expiresAt = (now: Date) => Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;

function urlProblem(reason: WebhookUrlRejection, allowLoopback: boolean): string {
  switch (reason) {
    case 'invalid_url':
      return 'url must be an absolute URL';
    case 'unsupported_scheme':
      return allowLoopback ? 'url must use https (http is accepted for loopback addresses only)' : 'url must use https';
    case 'credentials_in_url':
      return 'url must not contain a user name or password';
    case 'non_public_address':
      return 'url must point to a public address (private, loopback, link-local and metadata addresses are refused)';
  }
}

/**
 * Registers an endpoint with a new signing secret (stored encrypted). The account's endpoint count and the endpoint
 * are written in one transaction whose condition keeps the count at five even under concurrent creates.
 */
export async function createWebhook(deps: WebhookDeps, cipher: SecretCipher, accountId: string, input: NewWebhook) {
  const allowLoopback = deps.config.allowLoopbackWebhooks;
  const checked = checkWebhookUrl(input.url, { allowLoopback });
  if (!checked.ok) throw badRequest(urlProblem(checked.reason, allowLoopback), { code: 'invalid_webhook_url' });
  const id = deps.newId();
  const now = deps.now().toISOString();
  const signingSecret = generateSigningSecret();
  const webhook: WebhookItem = {
    id,
    account_id: accountId,
    url: checked.url,
    description: input.description,
    enabled_events: input.enabled_events,
    status: 'enabled',
    created_at: now,
    updated_at: now,
    consecutive_failures: 0,
    encrypted_secret: await cipher.encrypt(signingSecret, id),
  };
  const table = deps.config.tableName;
  const limitReached = badRequest(
    `An account can register at most ${WEBHOOK_LIMIT} webhook endpoints, disabled ones included; delete one first`,
    {
      code: 'webhook_limit_reached',
      details: { limit: WEBHOOK_LIMIT },
    },
  );
  await transact(
    deps.ddb,
    [
      {
        Update: {
          TableName: table,
          Key: accountStatsKey(accountId),
          UpdateExpression: 'ADD webhooks :one',
          ConditionExpression: 'attribute_not_exists(webhooks) OR webhooks < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': WEBHOOK_LIMIT },
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...webhookKey(accountId, id), type: 'Webhook', ...webhook },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? limitReached : undefined),
  );
  return { webhook, signingSecret };
}

/** Oldest first (ids are ULIDs). At most five items, so one page. */
export async function listWebhooks(deps: WebhookDeps, accountId: string): Promise<WebhookItem[]> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': accountWebhooksPartition(accountId) },
    }),
  );
  return (Items ?? []).map((item) => webhookItemSchema.parse(item));
}

/** Strongly consistent for the delivery worker, so a rotated secret or a disable is seen at once. */
export async function findWebhook(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  { consistentRead = false } = {},
): Promise<WebhookItem | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({
      TableName: deps.config.tableName,
      Key: webhookKey(accountId, webhookId),
      ConsistentRead: consistentRead,
    }),
  );
  return Item ? webhookItemSchema.parse(Item) : undefined;
}

/** Endpoints are keyed under their account, so another account's endpoint is indistinguishable from none: 404. */
export async function getOwnWebhook(deps: WebhookDeps, accountId: string, webhookId: string): Promise<WebhookItem> {
  const webhook = await findWebhook(deps, accountId, webhookId);
  if (!webhook) throw notFound(`Webhook ${webhookId} does not exist`);
  return webhook;
}

/** Deletes the endpoint and frees its place in the limit, both or neither. Its attempt log expires with its TTL. */
export async function deleteWebhook(deps: WebhookDeps, accountId: string, webhookId: string): Promise<void> {
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      {
        Delete: {
          TableName: table,
          Key: webhookKey(accountId, webhookId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      statChange(table, accountId, 'webhooks', -1),
    ],
    (reasons) =>
      reasons[0] === 'ConditionalCheckFailed' ? notFound(`Webhook ${webhookId} does not exist`) : undefined,
  );
}

/** Replaces the secret; the worker reads the secret at every attempt, so the previous one is never used again. */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  cipher: SecretCipher,
  accountId: string,
  webhookId: string,
): Promise<string> {
  const signingSecret = generateSigningSecret();
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: webhookKey(accountId, webhookId),
        UpdateExpression: 'SET encrypted_secret = :secret, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':secret': await cipher.encrypt(signingSecret, webhookId),
          ':now': deps.now().toISOString(),
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw notFound(`Webhook ${webhookId} does not exist`);
    throw error;
  }
  return signingSecret;
}

export async function listDeliveryAttempts(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  page: { page: number; limit: number },
): Promise<DeliveryAttempt[]> {
  await getOwnWebhook(deps, accountId, webhookId);
  return pageAccountItems(deps, {
    partition: webhookAttemptsPartition(webhookId),
    order: 'DESC',
    page: page.page,
    limit: page.limit,
    decode: (item) => attemptItemSchema.parse(item),
  });
}

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
  await storeEvent(deps, event);
  await enqueueDelivery(deps, { event_id: event.id, webhook_id: webhookId, account_id: accountId, attempt: 1 });
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
  const [hadEvent, event] = await Promise.all([
    hasAttempts(deps, webhookId, eventId),
    findStoredEvent(deps, accountId, eventId),
  ]);
  if (!hadEvent || !event)
    throw notFound(`Webhook ${webhookId} has no delivery of event ${eventId} in the last 30 days`);
  await enqueueDelivery(deps, { event_id: eventId, webhook_id: webhookId, account_id: accountId, attempt: 1 });
  return event;
}

async function hasAttempts(deps: WebhookDeps, webhookId: string, eventId: string): Promise<boolean> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition(webhookId, eventId) },
      Limit: 1,
    }),
  );
  return (Items ?? []).length > 0;
}

/** The account's enabled endpoints subscribed to this event name: one Query of at most five items. */
export async function subscribedWebhooks(
  deps: WebhookDeps,
  accountId: string,
  eventType: string,
): Promise<WebhookItem[]> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: '#status = :enabled AND contains(enabled_events, :type)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': accountWebhooksPartition(accountId),
        ':enabled': 'enabled',
        ':type': eventType,
      },
    }),
  );
  return (Items ?? []).map((item) => webhookItemSchema.parse(item));
}

export const storedEventOf = (event: IncomingEvent): StoredEvent => ({
  id: event.id,
  event_type: event.type,
  account_id: event.account_id,
  occurred_at: event.occurred_at,
  country_code: event.country_code,
  resource: event.resource,
});

/** Idempotent: a redelivered event has the same id and content. */
export async function storeEvent(deps: WebhookDeps, event: StoredEvent): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...webhookEventKey(event.account_id, event.id),
        type: 'WebhookEvent',
        ...event,
        [TTL_ATTRIBUTE]: expiresAt(deps.now()),
      },
    }),
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

export async function recordAttempt(deps: WebhookDeps, attempt: DeliveryAttempt): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...webhookAttemptKey(attempt.webhook_id, attempt.event_id, attempt.id),
        ...webhookAttemptIndex(attempt.webhook_id, attempt.id),
        type: 'WebhookDelivery',
        ...attempt,
        [TTL_ATTRIBUTE]: expiresAt(deps.now()),
      },
    }),
  );
}

/**
 * Takes one of the endpoint's ten attempt slots before an attempt. A slot is held while the attempt runs and, if it
 * fails, for as long as the failure streak lasts; so failures in a row plus attempts in flight never pass the
 * disable threshold, and parallel workers cannot send an 11th failing attempt. False: no slot free (or disabled).
 */
export async function reserveAttempt(deps: WebhookDeps, webhook: WebhookItem): Promise<boolean> {
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: webhookKey(webhook.account_id, webhook.id),
        UpdateExpression: 'ADD attempt_slots :one',
        ConditionExpression: '#status = :enabled AND (attribute_not_exists(attempt_slots) OR attempt_slots < :max)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':one': 1, ':enabled': 'enabled', ':max': DISABLE_AFTER_CONSECUTIVE_FAILURES },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A success ends the failure streak and frees its slots along with the one this attempt held. */
export async function endFailureStreak(deps: WebhookDeps, webhook: WebhookItem): Promise<void> {
  const key = webhookKey(webhook.account_id, webhook.id);
  try {
    const { Attributes } = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: key,
        UpdateExpression: 'SET consecutive_failures = :zero ADD attempt_slots :minusOne',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':zero': 0, ':minusOne': -1 },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    const streak = Number(Attributes?.consecutive_failures ?? 0);
    if (streak > 0) {
      await deps.ddb.send(
        new UpdateCommand({
          TableName: deps.config.tableName,
          Key: key,
          UpdateExpression: 'ADD attempt_slots :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -streak },
        }),
      );
    }
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export const reachedDisableThreshold = (consecutiveFailures: number) =>
  consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE_FAILURES;

/** `counting`: still enabled; `disabled_now`: this failure disabled it; `stopped`: disabled or deleted meanwhile. */
export type FailureOutcome =
  | { kind: 'counting' }
  | { kind: 'disabled_now'; webhook: WebhookItem }
  | { kind: 'stopped' };

/**
 * Counts a failed attempt atomically. At the threshold the endpoint is disabled by a conditional update
 * (`status = enabled`), which exactly one of several racing workers wins: only that one reports `disabled_now`.
 */
export async function countFailure(
  deps: WebhookDeps,
  webhook: WebhookItem,
  lastError: string,
): Promise<FailureOutcome> {
  const table = deps.config.tableName;
  const key = webhookKey(webhook.account_id, webhook.id);
  let counted: WebhookItem;
  try {
    const { Attributes } = await deps.ddb.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'ADD consecutive_failures :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    counted = webhookItemSchema.parse(Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return { kind: 'stopped' };
    throw error;
  }
  if (counted.status !== 'enabled') return { kind: 'stopped' };
  if (!reachedDisableThreshold(counted.consecutive_failures)) return { kind: 'counting' };

  const now = deps.now().toISOString();
  const reason = `${counted.consecutive_failures} delivery attempts failed in a row (last: ${lastError})`;
  try {
    const { Attributes } = await deps.ddb.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'SET #status = :disabled, disabled_at = :now, disabled_reason = :reason, updated_at = :now',
        ConditionExpression: '#status = :enabled',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':disabled': 'disabled', ':enabled': 'enabled', ':now': now, ':reason': reason },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { kind: 'disabled_now', webhook: webhookItemSchema.parse(Attributes) };
  } catch (error) {
    if (isConditionFailure(error)) return { kind: 'stopped' };
    throw error;
  }
}

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

export async function enqueueDelivery(deps: WebhookDeps, job: DeliveryJob, delaySeconds = 0): Promise<void> {
  await sqsClient(deps.config).send(
    new SendMessageCommand({
      QueueUrl: deliveriesQueueUrl(deps.config),
      MessageBody: JSON.stringify(job),
      DelaySeconds: delaySeconds,
    }),
  );
}

const SQS_BATCH = 10;

/** Sends jobs in batches of ten and returns the entries that were not queued (a failed call fails its whole batch). */
export async function enqueueDeliveries<T extends { job: DeliveryJob }>(
  deps: WebhookDeps & Pick<Deps, 'log'>,
  entries: T[],
): Promise<T[]> {
  const queueUrl = deliveriesQueueUrl(deps.config);
  const unsent: T[] = [];
  for (let start = 0; start < entries.length; start += SQS_BATCH) {
    const batch = entries.slice(start, start + SQS_BATCH);
    try {
      const { Failed } = await sqsClient(deps.config).send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map(({ job }, index) => ({ Id: String(index), MessageBody: JSON.stringify(job) })),
        }),
      );
      for (const failure of Failed ?? []) unsent.push(batch[Number(failure.Id)]!);
    } catch (error) {
      deps.log.error('queueing webhook deliveries failed', { error });
      unsent.push(...batch);
    }
  }
  return unsent;
}
