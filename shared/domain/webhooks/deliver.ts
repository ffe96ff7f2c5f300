// The delivery process: one job is one attempt of one event at one endpoint. Read the endpoint (and so its current
// secret) and the stored event, take an attempt slot, sign, POST, log the attempt; on failure count it toward the
// disable rule and queue the next attempt as a new, delayed message (the attempt number lives in the job).
import type { Deps } from '../../deps.ts';
import type { NotifyOwner } from '../../webhooks/owner-mail.ts';
import type { SecretCipher } from '../../webhooks/secret-cipher.ts';
import { buildDeliveryRequest, describeFailure, postDelivery } from '../../webhooks/transport.ts';
import { getAccount } from '../accounts/store.ts';
import { countFailure, endFailureStreak, recordAttempt, reserveAttempt } from './attempts.ts';
import { type DeliveryJob, enqueueDelivery, retryAfterFailure } from './delivery-queue.ts';
import { findWebhook } from './endpoints.ts';
import { findStoredEvent } from './stored-events.ts';
import type { WebhookItem } from './webhook.ts';

/** A healthy endpoint frees slots within milliseconds: wait this long in the worker before giving the job back. */
const SLOT_POLL_MS = 20;

const SLOT_POLLS = 25;

/** How long a job that found no free attempt slot waits in the queue (it keeps its attempt number). */
const SLOT_WAIT_SECONDS = 1;

export interface DeliveryDeps extends Pick<Deps, 'ddb' | 'config' | 'log' | 'now' | 'newId' | 'random'> {
  cipher: SecretCipher;
  notifyOwner: NotifyOwner;
  /** REPLY_TIMEOUT_MS deployed; tests shorten it. */
  replyTimeoutMs: number;
}

async function reserveSlotSoon(deps: DeliveryDeps, webhook: WebhookItem): Promise<boolean> {
  for (let poll = 0; poll < SLOT_POLLS; poll++) {
    if (await reserveAttempt(deps, webhook)) return true;
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
  }
  return false;
}

export async function deliver(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
  const [webhook, event] = await Promise.all([
    findWebhook(deps, job.account_id, job.webhook_id, { consistentRead: true }),
    findStoredEvent(deps, job.account_id, job.event_id),
  ]);
  if (webhook?.status !== 'enabled' || !event) {
    const reason = !webhook
      ? 'endpoint deleted'
      : webhook.status !== 'enabled'
        ? 'endpoint disabled'
        : 'event no longer stored';
    deps.log.info('webhook delivery skipped', { ...job, reason });
    return;
  }
  if (!(await reserveSlotSoon(deps, webhook))) {
    // Ten attempts are failing or in flight: wait for one to end (disabled endpoints drop the job next time).
    await enqueueDelivery(deps, job, SLOT_WAIT_SECONDS);
    return;
  }
  // Read at attempt time, so every attempt (retries included) is signed with the secret current now.
  const secret =
    webhook.encrypted_secret === undefined
      ? undefined
      : await deps.cipher.decrypt(webhook.encrypted_secret, webhook.id);
  const attemptedAt = deps.now();
  const request = buildDeliveryRequest(webhook.url, event, secret, Math.floor(attemptedAt.getTime() / 1000));
  const result = await postDelivery(webhook.url, request, {
    allowLoopback: deps.config.allowLoopbackWebhooks,
    timeoutMs: deps.replyTimeoutMs,
  });
  await recordAttempt(deps, {
    id: deps.newId(),
    webhook_id: webhook.id,
    event_id: event.id,
    event_type: event.event_type,
    attempt: job.attempt,
    attempted_at: attemptedAt.toISOString(),
    status_code: result.statusCode,
    error: result.error,
    duration_ms: result.durationMs,
    succeeded: result.succeeded,
  });
  deps.log.info('webhook delivery attempted', {
    ...job,
    succeeded: result.succeeded,
    statusCode: result.statusCode,
    error: result.error,
  });
  if (result.succeeded) await endFailureStreak(deps, webhook);
  else await afterFailure(deps, job, webhook, describeFailure(result));
}

async function afterFailure(
  deps: DeliveryDeps,
  job: DeliveryJob,
  webhook: WebhookItem,
  failure: string,
): Promise<void> {
  const outcome = await countFailure(deps, webhook, failure);
  if (outcome.kind === 'disabled_now') await notifyOwnerOfDisable(deps, outcome.webhook);
  // A disabled or deleted endpoint receives nothing more, retries included.
  if (outcome.kind !== 'counting') return;
  const retry = retryAfterFailure(job, deps.random);
  if (retry) await enqueueDelivery(deps, retry.job, retry.delaySeconds);
}

/**
 * Runs only in the worker whose conditional update disabled the endpoint, so the owner is mailed once. A failed mail
 * is logged rather than retried: the disable has committed, and a retried job would find the endpoint disabled.
 */
async function notifyOwnerOfDisable(deps: DeliveryDeps, webhook: WebhookItem): Promise<void> {
  deps.log.info('webhook endpoint disabled', {
    accountId: webhook.account_id,
    webhookId: webhook.id,
    reason: webhook.disabled_reason,
  });
  const account = await getAccount(deps, webhook.account_id);
  if (!account?.email) {
    deps.log.info('the owner of the disabled webhook has no e-mail address', {
      accountId: webhook.account_id,
      webhookId: webhook.id,
    });
    return;
  }
  try {
    await deps.notifyOwner(
      { name: account.name, email: account.email },
      webhook,
      webhook.disabled_reason ?? 'too many failed attempts in a row',
    );
  } catch (error) {
    deps.log.error('mailing the owner of a disabled webhook failed', {
      accountId: webhook.account_id,
      webhookId: webhook.id,
      error,
    });
  }
}
