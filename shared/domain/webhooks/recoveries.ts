// Recovering an outage in one call: every event of an endpoint whose attempts all failed in a window is queued once
// more (to the endpoint, or to the one that took a disabled endpoint's place), through the same queue and worker as
// any delivery, so the endpoint's attempt slots bound how many are in flight. A conditional marker per event makes
// each event recovered at most once, also under concurrent recoveries.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Deps } from '../../deps.ts';
import { batchGetAll } from '../../db/batch.ts';
import { whenConditionFails } from '../../db/errors.ts';
import {
  webhookAttemptsPartition,
  webhookAttemptTimeRange,
  webhookEventAttemptsPartition,
  webhookRecoveredEventKey,
  webhookRecoveryKey,
} from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { type DeliveryJob, enqueueDeliveries } from './delivery-queue.ts';
import { getOwnWebhook } from './endpoints.ts';
import type { RecoverRequest } from './input.ts';
import { expiresAt, findStoredEvent, RETENTION_SECONDS, type StoredEvent, storedEventSchema } from './stored-events.ts';
import type { WebhookDeps, WebhookItem } from './webhook.ts';

/** Events one recovery takes at most; a window holding more is refused (narrow it and recover in parts). */
export const MAX_RECOVERY_EVENTS = 500;
/** Failed attempts one recovery reads at most (three per event, with room for manual redeliveries). */
const MAX_FAILED_ATTEMPTS_READ = 2_000;
/** Requests sent at once while checking and marking events. */
const PARALLEL_REQUESTS = 10;

type RecoveryDeps = WebhookDeps & Pick<Deps, 'log'>;

const recoveryItemSchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  to_endpoint_id: z.string(),
  since: z.string(),
  until: z.string(),
  created_at: z.string(),
  queued: z.number(),
  skipped_unsubscribed: z.number(),
  delivered: z._default(z.number(), 0),
  failed: z._default(z.number(), 0),
});
type RecoveryItem = z.infer<typeof recoveryItemSchema>;

/** The recovery as the API shows it: `completed` once every queued event was delivered or gave up. */
export const presentRecovery = (r: RecoveryItem) => ({
  id: r.id,
  webhook_id: r.webhook_id,
  to_endpoint_id: r.to_endpoint_id,
  since: r.since,
  until: r.until,
  created_at: r.created_at,
  state: r.delivered + r.failed >= r.queued ? ('completed' as const) : ('running' as const),
  queued: r.queued,
  delivered: r.delivered,
  failed: r.failed,
  skipped_unsubscribed: r.skipped_unsubscribed,
});

/** Refuses a window the log cannot answer: in the future, or reaching back past its 30-day retention. */
function checkWindow(now: Date, since: Date, until: Date): void {
  if (until > now) throw badRequest('until must not be in the future', { code: 'invalid_window' });
  if (since >= until) throw badRequest('since must be before until', { code: 'invalid_window' });
  if (since.getTime() < now.getTime() - RETENTION_SECONDS * 1000) {
    throw badRequest('since must be within the last 30 days (the delivery log keeps attempts that long)', {
      code: 'window_too_long',
    });
  }
}

/** The endpoint deliveries go to: the source itself (enabled), or another enabled endpoint of the same account. */
async function targetEndpoint(deps: WebhookDeps, accountId: string, source: WebhookItem, toId: string | undefined) {
  const target = toId === undefined || toId === source.id ? source : await getOwnWebhook(deps, accountId, toId);
  if (target.status !== 'enabled') {
    throw conflict(
      target === source
        ? `Webhook ${source.id} is disabled; recover its events to an enabled endpoint with to_endpoint_id`
        : `Webhook ${target.id} is disabled and receives no events`,
      { code: 'webhook_disabled' },
    );
  }
  return target;
}

/** Runs `task` over `items`, `PARALLEL_REQUESTS` at a time, keeping the order of the results. */
async function inParallel<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_REQUESTS }, worker));
  return results;
}

/**
 * The events of the endpoint with a failed attempt in the window, each with the event as its attempt logged it
 * (gsi1, the endpoint's log in time order; the outcome is a filter). Refused when the window holds too many.
 */
async function failedInWindow(deps: WebhookDeps, accountId: string, webhookId: string, since: Date, until: Date) {
  const range = webhookAttemptTimeRange(since, until);
  const events = new Map<string, { event?: StoredEvent }>();
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition AND gsi1sk BETWEEN :from AND :to',
        FilterExpression: 'succeeded = :failed',
        ExpressionAttributeValues: {
          ':partition': webhookAttemptsPartition(webhookId),
          ':from': range.from,
          ':to': range.to,
          ':failed': false,
        },
        ExclusiveStartKey: startKey,
      }),
    );
    read += Items.length;
    for (const item of Items) {
      const eventId = String(item.event_id);
      if (!events.has(eventId))
        events.set(eventId, item.event === undefined ? {} : { event: storedEventSchema.parse(item.event) });
    }
    if (read > MAX_FAILED_ATTEMPTS_READ || events.size > MAX_RECOVERY_EVENTS) throw tooManyEvents();
    startKey = LastEvaluatedKey;
  } while (startKey);
  return Promise.all(
    [...events].map(async ([eventId, { event }]) => event ?? (await findStoredEvent(deps, accountId, eventId))),
  ).then((found) => found.filter((event): event is StoredEvent => event !== undefined));
}

const tooManyEvents = () =>
  badRequest(`The window holds more than ${MAX_RECOVERY_EVENTS} failed events; recover it in shorter windows (until)`, {
    code: 'recovery_too_large',
    details: { limit: MAX_RECOVERY_EVENTS },
  });

/** Whether any attempt of the event at the endpoint succeeded (before, in or after the window). */
async function delivered(deps: WebhookDeps, webhookId: string, eventId: string): Promise<boolean> {
  const { Count = 0 } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'succeeded = :ok',
      ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition(webhookId, eventId), ':ok': true },
      Select: 'COUNT',
    }),
  );
  return Count > 0;
}

/** Marks the event recovered by `recoveryId`; false when an earlier recovery already took it. */
async function claim(deps: WebhookDeps, webhookId: string, eventId: string, recoveryId: string): Promise<boolean> {
  return whenConditionFails(
    deps.ddb
      .send(
        new PutCommand({
          TableName: deps.config.tableName,
          Item: {
            ...webhookRecoveredEventKey(webhookId, eventId),
            type: 'WebhookRecoveredEvent',
            recovery_id: recoveryId,
            [TTL_ATTRIBUTE]: expiresAt(deps.now()),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .then(() => true),
    () => false,
  );
}

/**
 * Queues one redelivery of every event of the endpoint whose attempts in the window all failed and that was neither
 * delivered since nor recovered before. Events of a type the target is not subscribed to are counted and left
 * unmarked, so a later recovery to an endpoint that takes them can still send them.
 */
export async function recoverEndpoint(
  deps: RecoveryDeps,
  accountId: string,
  webhookId: string,
  request: RecoverRequest,
) {
  const now = deps.now();
  const until = request.until ?? now;
  checkWindow(now, request.since, until);
  const source = await getOwnWebhook(deps, accountId, webhookId);
  const target = await targetEndpoint(deps, accountId, source, request.to_endpoint_id);
  const failed = await failedInWindow(deps, accountId, webhookId, request.since, until);
  const subscribed = failed.filter((event) => target.enabled_events.includes(event.event_type));
  const recovered = new Set(
    (
      await batchGetAll(
        deps.ddb,
        deps.config.tableName,
        subscribed.map((event) => webhookRecoveredEventKey(webhookId, event.id)),
      )
    ).map((item) => item.pk),
  );
  const fresh = subscribed.filter((event) => !recovered.has(webhookRecoveredEventKey(webhookId, event.id).pk));
  const undelivered = (await inParallel(fresh, (event) => delivered(deps, webhookId, event.id))).flatMap(
    (wasDelivered, n) => (wasDelivered ? [] : [fresh[n]!]),
  );
  const id = `rcv_${deps.newId()}`;
  const claimed = (await inParallel(undelivered, (event) => claim(deps, webhookId, event.id, id))).flatMap((won, n) =>
    won ? [undelivered[n]!] : [],
  );
  const recovery: RecoveryItem = {
    id,
    webhook_id: webhookId,
    to_endpoint_id: target.id,
    since: request.since.toISOString(),
    until: until.toISOString(),
    created_at: now.toISOString(),
    queued: claimed.length,
    skipped_unsubscribed: failed.length - subscribed.length,
    delivered: 0,
    failed: 0,
  };
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...webhookRecoveryKey(webhookId, id),
        type: 'WebhookRecovery',
        ...recovery,
        ended: 0,
        [TTL_ATTRIBUTE]: expiresAt(now),
      },
    }),
  );
  const jobs = claimed.map(
    (event): DeliveryJob => ({ webhook_id: target.id, attempt: 1, event, recovery: { id, webhook_id: webhookId } }),
  );
  const unsent = await enqueueDeliveries(deps, jobs);
  if (unsent.length > 0)
    await releaseUnsent(
      deps,
      recovery,
      unsent.map(({ job }) => job.event.id),
    );
  return { ...recovery, queued: recovery.queued - unsent.length };
}

/** Jobs SQS did not take: their events are free for the next recovery, and this one does not wait for them. */
async function releaseUnsent(deps: RecoveryDeps, recovery: RecoveryItem, eventIds: string[]) {
  deps.log.error('a recovery could not queue some events; they stay recoverable', {
    recoveryId: recovery.id,
    webhookId: recovery.webhook_id,
    events: eventIds.length,
  });
  await inParallel(eventIds, (eventId) =>
    deps.ddb.send(
      new DeleteCommand({
        TableName: deps.config.tableName,
        Key: webhookRecoveredEventKey(recovery.webhook_id, eventId),
      }),
    ),
  );
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: webhookRecoveryKey(recovery.webhook_id, recovery.id),
      UpdateExpression: 'ADD queued :less',
      ExpressionAttributeValues: { ':less': -eventIds.length },
    }),
  );
}

/** One recovery of the caller's endpoint, with its progress. */
export async function getRecovery(deps: WebhookDeps, accountId: string, webhookId: string, recoveryId: string) {
  await getOwnWebhook(deps, accountId, webhookId);
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: webhookRecoveryKey(webhookId, recoveryId) }),
  );
  if (!Item) throw notFound(`Webhook ${webhookId} has no recovery ${recoveryId}`);
  return recoveryItemSchema.parse(Item);
}
