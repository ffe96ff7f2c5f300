// The delivery log and the endpoint's attempt slots and failure streak (the disable rule, kept by conditions).
//
// Invariant on the endpoint item: attempt_slots = consecutive_failures + attempts in flight <= 10. A slot is taken
// before an attempt and, if the attempt fails, held for as long as the failure streak lasts; so failures in a row plus
// attempts in flight never pass the disable threshold, and parallel workers cannot send an 11th failing attempt.
// Workers take and settle slots for a group of attempts at once (one write each way per endpoint and batch).
//
// Slots are leased: each write that takes slots stamps slots_taken_at, and a worker that finds all ten taken and
// none taken for SLOT_LEASE_MS takes back the ones in flight (never the streak's): every worker that took them has
// ended by then, so they were leaked by one that died before giving them back.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../deps.ts';
import * as z from 'zod/mini';
import { batchWriteAll } from '../../db/batch.ts';
import { queryCursorPage } from '../../db/cursor-page.ts';
import { isConditionFailure, itemAtConditionFailure, whenConditionFails } from '../../db/errors.ts';
import {
  webhookAttemptIndex,
  webhookAttemptKey,
  webhookAttemptsPartition,
  webhookAttemptTimeRange,
  webhookEventAttemptsPartition,
  webhookKey,
} from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import { notFound } from '../../errors.ts';
import { getOwnWebhook } from './endpoints.ts';
import type { DeliveryLogQuery } from './input.ts';
import { expiresAt, type StoredEvent, storedEventSchema } from './stored-events.ts';
import {
  DISABLE_AFTER_CONSECUTIVE_FAILURES,
  reachedDisableThreshold,
  type WebhookDeps,
  type WebhookItem,
  webhookItemSchema,
} from './webhook.ts';

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
  /** Absent from attempts logged before replies were kept (2026-11-28); null when no reply came. */
  response: z.optional(
    z.nullable(
      z.object({
        headers: z.record(z.string(), z.string()),
        body: z.nullable(z.string()),
        body_binary: z.boolean(),
        body_truncated: z.boolean(),
      }),
    ),
  ),
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
  response: a.response ?? null,
});

/** Items read per query of one event's attempts. */
const EVALUATED_PER_QUERY = 100;
/** The latest time a ULID can hold. */
const LAST_ULID_TIME = new Date(2 ** 48 - 1);

/**
 * A page of the endpoint's attempt log, newest first: the time window is a key condition (attempt ids are ULIDs), the
 * outcome and event type a filter. `cursor` is where the next page starts; absent when the log is exhausted.
 */
export async function listDeliveryAttempts(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  query: DeliveryLogQuery,
): Promise<{ attempts: DeliveryAttempt[]; cursor: string | undefined }> {
  await getOwnWebhook(deps, accountId, webhookId);
  const partition = webhookAttemptsPartition(webhookId);
  const range = webhookAttemptTimeRange(query.since ?? new Date(0), query.until ?? LAST_ULID_TIME);
  const filters = [
    ...(query.status === undefined
      ? []
      : [{ expression: 'succeeded = :ok', value: [':ok', query.status === 'succeeded'] }]),
    ...(query.event_type === undefined
      ? []
      : [{ expression: 'event_type = :type', value: [':type', query.event_type] }]),
  ];
  const { items, cursor } = await queryCursorPage(
    deps.ddb,
    {
      TableName: deps.config.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :partition AND gsi1sk BETWEEN :from AND :to',
      ...(filters.length > 0 && { FilterExpression: filters.map((f) => f.expression).join(' AND ') }),
      ExpressionAttributeValues: {
        ':partition': partition,
        ':from': range.from,
        ':to': range.to,
        ...Object.fromEntries(filters.map((f) => f.value)),
      },
      ScanIndexForward: false,
    },
    { keys: ['pk', 'sk', 'gsi1pk', 'gsi1sk'], partition: ['gsi1pk', partition] },
    { limit: query.limit, cursor: query.cursor },
  );
  return { attempts: items.map((item) => attemptItemSchema.parse(item)), cursor };
}

/** Every attempt of one event at this endpoint, oldest first (at most the first 100: 33 redeliveries of it). */
export async function eventDeliveryAttempts(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  eventId: string,
): Promise<DeliveryAttempt[]> {
  await getOwnWebhook(deps, accountId, webhookId);
  const { Items = [] } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition(webhookId, eventId) },
      Limit: EVALUATED_PER_QUERY,
    }),
  );
  if (Items.length === 0) {
    throw notFound(`Webhook ${webhookId} has no delivery of event ${eventId} in the last 30 days`);
  }
  return Items.map((item) => attemptItemSchema.parse(item));
}

/**
 * An attempt as logged: with the event it delivered, so that redelivery sends the event again from the log (the first
 * attempt's item) and nothing stores the event on its own.
 */
export type LoggedAttempt = DeliveryAttempt & { event: StoredEvent };

/**
 * The endpoint's first logged attempt of the event (the oldest item of its partition), or undefined when it never had
 * the event. `event` is missing from attempts logged before attempts carried their event (up to 2026-11-25; the log
 * expires 30 days later): their event is the copy the dispatcher stored then (findStoredEvent).
 */
export async function firstLoggedAttempt(
  deps: WebhookDeps,
  webhookId: string,
  eventId: string,
): Promise<{ event?: StoredEvent } | undefined> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition(webhookId, eventId) },
      Limit: 1,
    }),
  );
  const [first] = Items ?? [];
  if (!first) return undefined;
  return first.event === undefined ? {} : { event: storedEventSchema.parse(first.event) };
}

/** Writes the log of several attempts (one BatchWriteItem per 25). */
async function recordAttempts(deps: WebhookDeps, attempts: LoggedAttempt[]): Promise<void> {
  const expires = expiresAt(deps.now());
  await batchWriteAll(
    deps.ddb,
    deps.config.tableName,
    attempts.map((attempt) => ({
      PutRequest: {
        Item: {
          ...webhookAttemptKey(attempt.webhook_id, attempt.event_id, attempt.id),
          ...webhookAttemptIndex(attempt.webhook_id, attempt.id),
          type: 'WebhookDelivery',
          ...attempt,
          [TTL_ATTRIBUTE]: expires,
        },
      },
    })),
  );
}

/**
 * How long slots may be held. A worker holds them for less than one invocation of the deliverer, whose timeout is 30 s
 * (events/consumers.ts; a unit test keeps the lease longer); the rest is margin for a write sent just before a
 * timeout to land.
 */
export const SLOT_LEASE_MS = 60_000;

/**
 * The lease of an endpoint's attempts in flight, for a worker that found every slot taken: `running` (or none in
 * flight: a full streak, which only a success frees), `expired` (no slot taken for a whole lease), or `unstamped`
 * (last taken before leases existed: the finder stamps it, so a leak from then is reclaimed a lease later).
 */
export function slotLease(endpoint: Record<string, unknown>, now: Date): 'running' | 'expired' | 'unstamped' {
  const inFlight = Number(endpoint.attempt_slots ?? 0) - Number(endpoint.consecutive_failures ?? 0);
  const takenAt = endpoint.slots_taken_at;
  if (inFlight <= 0) return 'running';
  if (typeof takenAt !== 'number') return 'unstamped';
  return takenAt <= now.getTime() - SLOT_LEASE_MS ? 'expired' : 'running';
}

async function stampLease(deps: WebhookDeps, key: ReturnType<typeof webhookKey>) {
  await whenConditionFails(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: key,
        UpdateExpression: 'SET slots_taken_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(slots_taken_at)',
        ExpressionAttributeValues: { ':now': deps.now().getTime() },
      }),
    ),
    () => undefined,
  );
}

/**
 * Takes back the slots of the attempts in flight, keeping the streak's, if the endpoint is still as `seen` (no slot
 * taken or given back since). Losing that race is fine: the caller tries to take slots again either way.
 */
async function reclaimSlots(
  deps: WebhookDeps & Pick<Deps, 'log'>,
  key: ReturnType<typeof webhookKey>,
  seen: Record<string, unknown>,
) {
  const reclaimed = await whenConditionFails(
    deps.ddb
      .send(
        new UpdateCommand({
          TableName: deps.config.tableName,
          Key: key,
          UpdateExpression: 'SET attempt_slots = if_not_exists(consecutive_failures, :none)',
          ConditionExpression: 'attempt_slots = :slots AND slots_taken_at = :takenAt',
          ExpressionAttributeValues: { ':none': 0, ':slots': seen.attempt_slots, ':takenAt': seen.slots_taken_at },
        }),
      )
      .then(() => true),
    () => false,
  );
  if (reclaimed)
    deps.log.info('webhook attempt slots taken back after their lease', {
      webhookId: seen.id,
      accountId: seen.account_id,
      slots: Number(seen.attempt_slots) - Number(seen.consecutive_failures ?? 0),
    });
}

export type SlotGrant =
  | { kind: 'granted'; slots: number; webhook: WebhookItem }
  | { kind: 'busy' }
  | { kind: 'stopped'; reason: 'endpoint deleted' | 'endpoint disabled' };

/** Conflicting writes between our read of the free slots and our retry are rare; past this, report busy. */
const RESERVE_TRIES = 3;

/**
 * Takes up to `wanted` attempt slots in one conditional write that also returns the endpoint as it is now (its
 * status, URL and current secret), so no separate read is needed. When fewer are free, the failed condition returns
 * the item, and the free ones are taken instead. `busy`: none free.
 */
async function reserveSlots(
  deps: WebhookDeps & Pick<Deps, 'log'>,
  accountId: string,
  webhookId: string,
  wanted: number,
): Promise<SlotGrant> {
  let slots = Math.min(wanted, DISABLE_AFTER_CONSECUTIVE_FAILURES);
  for (let tries = 0; tries < RESERVE_TRIES; tries++) {
    try {
      const { Attributes } = await deps.ddb.send(
        new UpdateCommand({
          TableName: deps.config.tableName,
          Key: webhookKey(accountId, webhookId),
          UpdateExpression: 'SET slots_taken_at = :now ADD attempt_slots :slots',
          ConditionExpression: '#status = :enabled AND (attribute_not_exists(attempt_slots) OR attempt_slots <= :most)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':slots': slots,
            ':enabled': 'enabled',
            ':most': DISABLE_AFTER_CONSECUTIVE_FAILURES - slots,
            ':now': deps.now().getTime(),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'granted', slots, webhook: webhookItemSchema.parse(Attributes) };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = itemAtConditionFailure(error);
      if (!current) return { kind: 'stopped', reason: 'endpoint deleted' };
      if (current.status !== 'enabled') return { kind: 'stopped', reason: 'endpoint disabled' };
      const free = DISABLE_AFTER_CONSECUTIVE_FAILURES - Number(current.attempt_slots ?? 0);
      if (free > 0) {
        slots = Math.min(slots, free);
        continue;
      }
      const lease = slotLease(current, deps.now());
      if (lease === 'unstamped') await stampLease(deps, webhookKey(accountId, webhookId));
      if (lease !== 'expired') return { kind: 'busy' };
      await reclaimSlots(deps, webhookKey(accountId, webhookId), current);
    }
  }
  return { kind: 'busy' };
}

/** `counting`: still enabled; `disabled_now`: these failures disabled it; `stopped`: disabled or deleted meanwhile. */
export type FailureOutcome =
  | { kind: 'counting' }
  | { kind: 'disabled_now'; webhook: WebhookItem }
  | { kind: 'stopped' };

export interface SettledGroup {
  /** The slots the group took. */
  slots: number;
  /** Whether each attempt succeeded, in the order the attempts finished; slots without an attempt are given back. */
  outcomes: boolean[];
  /** The failure streak when the slots were taken (the first guess at it when a success ends it). */
  streakSeen: number;
  lastError: string | undefined;
}

/**
 * Gives back a group's slots in one write. With a success among them the streak becomes the failures that finished
 * after the last success, and the old streak's slots are freed; this needs the streak's current value (no update
 * expression subtracts one attribute from another), so the write is conditioned on the value seen and retried with
 * the value the failed condition returns. With failures only, they join the streak (keeping their slots) and the
 * threshold is checked: exactly one of several racing workers disables the endpoint.
 */
async function settleSlots(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  group: SettledGroup,
): Promise<FailureOutcome> {
  const key = webhookKey(accountId, webhookId);
  const lastSuccess = group.outcomes.lastIndexOf(true);
  const failures = group.outcomes.filter((ok) => !ok).length;
  if (lastSuccess >= 0) {
    const streak = group.outcomes.length - 1 - lastSuccess;
    let streakSeen = group.streakSeen;
    for (;;) {
      try {
        const { Attributes } = await deps.ddb.send(
          new UpdateCommand({
            TableName: deps.config.tableName,
            Key: key,
            UpdateExpression: 'SET consecutive_failures = :streak ADD attempt_slots :change',
            ConditionExpression: 'consecutive_failures = :seen',
            ExpressionAttributeValues: {
              ':streak': streak,
              ':change': streak - streakSeen - group.slots,
              ':seen': streakSeen,
            },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return Attributes?.status === 'enabled' ? { kind: 'counting' } : { kind: 'stopped' };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const current = itemAtConditionFailure(error);
        if (!current) return { kind: 'stopped' };
        streakSeen = Number(current.consecutive_failures ?? 0);
      }
    }
  }
  const counted = await whenConditionFails(
    deps.ddb
      .send(
        new UpdateCommand({
          TableName: deps.config.tableName,
          Key: key,
          UpdateExpression: 'ADD consecutive_failures :failures, attempt_slots :unused',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':failures': failures, ':unused': failures - group.slots },
          ReturnValues: 'ALL_NEW',
        }),
      )
      .then(({ Attributes }) => webhookItemSchema.parse(Attributes)),
    () => undefined,
  );
  if (counted?.status !== 'enabled') return { kind: 'stopped' };
  if (!reachedDisableThreshold(counted.consecutive_failures)) return { kind: 'counting' };
  return disableAfterFailures(deps, key, counted.consecutive_failures, group.lastError ?? 'unknown');
}

/** The reason a disable records: the streak that reached the threshold and the last failure. */
export const disableReason = (streak: number, lastError: string) =>
  `${streak} delivery attempts failed in a row (last: ${lastError})`;

async function disableAfterFailures(
  deps: WebhookDeps,
  key: ReturnType<typeof webhookKey>,
  streak: number,
  lastError: string,
): Promise<FailureOutcome> {
  const now = deps.now().toISOString();
  const reason = disableReason(streak, lastError);
  return whenConditionFails(
    deps.ddb
      .send(
        new UpdateCommand({
          TableName: deps.config.tableName,
          Key: key,
          // last_error is for webhook.endpoint.disabled, which the stream makes of this write.
          UpdateExpression:
            'SET #status = :disabled, disabled_at = :now, disabled_reason = :reason, last_error = :error, updated_at = :now',
          ConditionExpression: '#status = :enabled',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':disabled': 'disabled',
            ':enabled': 'enabled',
            ':now': now,
            ':reason': reason,
            ':error': lastError,
          },
          ReturnValues: 'ALL_NEW',
        }),
      )
      .then(
        ({ Attributes }): FailureOutcome => ({ kind: 'disabled_now', webhook: webhookItemSchema.parse(Attributes) }),
      ),
    (): FailureOutcome => ({ kind: 'stopped' }),
  );
}

/**
 * What the delivery process (deliver.ts) writes: an endpoint's attempt slots and failure streak, and the attempt log.
 * On the single table with the conditional writes above; tests of the process use an in-memory fake that keeps the
 * same rules (tests/support/in-memory-delivery-store.ts), and one contract test holds both to them.
 */
export interface DeliveryStore {
  reserveSlots(accountId: string, webhookId: string, wanted: number): Promise<SlotGrant>;
  settleSlots(accountId: string, webhookId: string, group: SettledGroup): Promise<FailureOutcome>;
  recordAttempts(attempts: LoggedAttempt[]): Promise<void>;
}

export const dynamoDeliveryStore = (deps: WebhookDeps & Pick<Deps, 'log'>): DeliveryStore => ({
  reserveSlots: (accountId, webhookId, wanted) => reserveSlots(deps, accountId, webhookId, wanted),
  settleSlots: (accountId, webhookId, group) => settleSlots(deps, accountId, webhookId, group),
  recordAttempts: (attempts) => recordAttempts(deps, attempts),
});
