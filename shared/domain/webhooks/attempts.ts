// The delivery log and the endpoint's attempt slots and failure streak (the disable rule, kept by conditions).
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { pageAccountItems } from '../../db/account-items.ts';
import { isConditionFailure, whenConditionFails } from '../../db/errors.ts';
import {
  webhookAttemptIndex,
  webhookAttemptKey,
  webhookAttemptsPartition,
  webhookEventAttemptsPartition,
  webhookKey,
} from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import { getOwnWebhook } from './endpoints.ts';
import { expiresAt } from './stored-events.ts';
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

export async function hasAttempts(deps: WebhookDeps, webhookId: string, eventId: string): Promise<boolean> {
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
  const reserved = deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: webhookKey(webhook.account_id, webhook.id),
      UpdateExpression: 'ADD attempt_slots :one',
      ConditionExpression: '#status = :enabled AND (attribute_not_exists(attempt_slots) OR attempt_slots < :max)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':enabled': 'enabled', ':max': DISABLE_AFTER_CONSECUTIVE_FAILURES },
    }),
  );
  return whenConditionFails(
    reserved.then(() => true),
    () => false,
  );
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
  const counted = await whenConditionFails(
    deps.ddb
      .send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: 'ADD consecutive_failures :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      )
      .then(({ Attributes }) => webhookItemSchema.parse(Attributes)),
    () => undefined,
  );
  if (counted?.status !== 'enabled') return { kind: 'stopped' };
  if (!reachedDisableThreshold(counted.consecutive_failures)) return { kind: 'counting' };

  const now = deps.now().toISOString();
  const reason = `${counted.consecutive_failures} delivery attempts failed in a row (last: ${lastError})`;
  return whenConditionFails(
    deps.ddb
      .send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: 'SET #status = :disabled, disabled_at = :now, disabled_reason = :reason, updated_at = :now',
          ConditionExpression: '#status = :enabled',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':disabled': 'disabled', ':enabled': 'enabled', ':now': now, ':reason': reason },
          ReturnValues: 'ALL_NEW',
        }),
      )
      .then(
        ({ Attributes }): FailureOutcome => ({ kind: 'disabled_now', webhook: webhookItemSchema.parse(Attributes) }),
      ),
    (): FailureOutcome => ({ kind: 'stopped' }),
  );
}
