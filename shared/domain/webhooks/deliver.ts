// The delivery process: one job is one attempt of one event at one endpoint, and the event travels in the job. One
// conditional write takes the attempt slot and returns the endpoint as it is now (status, URL, current secret); after
// the POST, one write gives the slot back and counts a failure toward the disable rule, next to the attempt's log.
// Within a consumer batch these writes are shared, and a slot freed by a success passes straight to the batch's next
// job for that endpoint (see deliveryBatch). A failed attempt queues the next as a new, delayed job (the attempt
// number lives in the job).
import type { Deps } from '../../deps.ts';
import type { NotifyOwner } from '../../webhooks/owner-mail.ts';
import type { SecretCipher } from '../../webhooks/secret-cipher.ts';
import { type AttemptResult, buildDeliveryRequest, describeFailure, postDelivery } from '../../webhooks/transport.ts';
import { turnBatch, windowBatch } from '../../webhooks/turn-batch.ts';
import { getAccount } from '../accounts/store.ts';
import type { DeliveryStore, LoggedAttempt, SlotGrant } from './attempts.ts';
import { type DeliveryJob, enqueueDelivery, retryAfterFailure } from './delivery-queue.ts';
import type { WebhookItem } from './webhook.ts';
import { METRIC, recordMetric } from '../../observability.ts';

/**
 * A healthy endpoint frees slots within milliseconds: a job that found none waits this long for a slot to be handed
 * on or given back before trying again (SLOT_POLLS times), then goes back to the queue.
 */
export const SLOT_POLL_MS = 20;

const SLOT_POLLS = 25;

/**
 * Slots a batch takes at once for its `jobs` to one endpoint: half of them (rounded up). The rest first wait one poll
 * for a success to hand its slot on, then take their own: to a receiver that answers within the poll, half the slots
 * carry the whole batch and leave the other half to a concurrent batch (one write less for each of its jobs that
 * would have found none free); to a slower one, they cost one poll.
 */
export const slotsToTake = (jobs: number) => Math.ceil(jobs / 2);

/** How long a job that found no free attempt slot waits in the queue (it keeps its attempt number). */
const SLOT_WAIT_SECONDS = 1;

/**
 * Attempts to one endpoint that finish within this long of each other settle in one write; a slower reply settles
 * on its own, so it holds back only its own slot.
 */
export const SETTLE_LINGER_MS = 10;

export interface DeliveryDeps extends Pick<Deps, 'ddb' | 'config' | 'log' | 'now' | 'newId' | 'random'> {
  /** Slots, streak and log: attempts.ts's dynamoDeliveryStore, or the tests' in-memory fake. */
  store: DeliveryStore;
  cipher: SecretCipher;
  notifyOwner: NotifyOwner;
  /** REPLY_TIMEOUT_MS deployed; tests shorten it. */
  replyTimeoutMs: number;
  /** SETTLE_LINGER_MS deployed; tests lengthen it, so that replies released together settle together on a busy machine. */
  settleLingerMs: number;
  /** SLOT_POLL_MS deployed; tests lengthen it, so that a slot handed on arrives within the poll on a busy machine. */
  slotPollMs: number;
}

/** One finished attempt to be settled, or undefined for a slot given back unused (nothing was sent). */
type Settlement = { attempt: LoggedAttempt; failure: string } | undefined;

/**
 * The delivery process for one consumer batch (create one per invocation): `deliver(job)` for each of its jobs, all
 * started in the same turn. Jobs to the same endpoint take their slots in one write; their attempts settle and log in
 * one write each once all have finished, or in several when replies are more than `settleLingerMs` apart. While a job
 * of the batch waits for a slot of the endpoint, a successful attempt hands its slot to it instead of settling: no
 * write gives the slot back or takes it again, and the attempt is logged and counted with the next settlement (a
 * success that passed its slot on needs no write of its own: it neither retries nor can disable). A failure keeps its
 * slot for the streak, as always, so it never passes it on.
 */
export function deliveryBatch(deps: DeliveryDeps): (job: DeliveryJob) => Promise<void> {
  /** Per endpoint: slots this invocation holds and has not settled yet (handed-on slots stay held). */
  const held = new Map<string, number>();
  /** Per endpoint: this invocation's jobs waiting for a slot, oldest first; calling one hands it a held slot. */
  const waiting = new Map<string, ((webhook: WebhookItem) => void)[]>();
  /**
   * Per endpoint: successes that handed their slot on, logged and counted by the endpoint's next settlement; each job
   * ends with that write (so SQS hands it back if the write fails, as it would its own settlement).
   */
  const handedOn = new Map<string, { attempt: LoggedAttempt; done: () => void; fail: (error: unknown) => void }[]>();
  /** Per endpoint: wakes this invocation's waiting jobs when it gives slots back itself. */
  const freed = new Map<string, { promise: Promise<void>; wake: () => void }>();
  const slotsFreed = (endpoint: string) => {
    let signal = freed.get(endpoint);
    if (!signal) {
      let wake = () => {};
      const promise = new Promise<void>((resolve) => (wake = resolve));
      signal = { promise, wake };
      freed.set(endpoint, signal);
    }
    return signal.promise;
  };
  const reserve = turnBatch(async (endpoint, jobs: DeliveryJob[]): Promise<SlotGrant[]> => {
    const first = jobs[0]!;
    const grant = await deps.store.reserveSlots(first.event.account_id, first.webhook_id, slotsToTake(jobs.length));
    if (grant.kind === 'granted') held.set(endpoint, (held.get(endpoint) ?? 0) + grant.slots);
    return jobs.map((_, n) => (grant.kind === 'granted' && n >= grant.slots ? { kind: 'busy' } : grant));
  });
  const settle = windowBatch(
    async (endpoint, settled: { webhook: WebhookItem; settlement: Settlement }[]) => {
      held.set(endpoint, held.get(endpoint)! - settled.length);
      const { webhook } = settled[0]!;
      // The successes that handed their slot on finished before these attempts ended, so they come first.
      const finished = settled.flatMap(({ settlement }) => (settlement ? [settlement] : []));
      const passedOn = handedOn.get(endpoint) ?? [];
      handedOn.delete(endpoint);
      const attempts = [...passedOn.map(({ attempt }) => attempt), ...finished.map(({ attempt }) => attempt)];
      const written = Promise.all([
        deps.store
          .settleSlots(webhook.account_id, webhook.id, {
            slots: settled.length,
            outcomes: attempts.map((attempt) => attempt.succeeded),
            streakSeen: webhook.consecutive_failures,
            lastError: finished.findLast(({ attempt }) => !attempt.succeeded)?.failure,
          })
          .then((outcome) => {
            // The slots are free once this write lands; the log write need not land first.
            freed.get(endpoint)?.wake();
            freed.delete(endpoint);
            return outcome;
          }),
        deps.store.recordAttempts(attempts),
      ]);
      written.then(
        () => {
          for (const job of passedOn) job.done();
        },
        (error: unknown) => {
          for (const job of passedOn) job.fail(error);
        },
      );
      const [outcome] = await written;
      if (outcome.kind === 'disabled_now') await notifyOwnerOfDisable(deps, outcome.webhook);
      return settled.map(() => outcome);
    },
    { lingerMs: deps.settleLingerMs, full: (endpoint, size) => size >= held.get(endpoint)! },
  );

  const attempt = async (job: DeliveryJob, webhook: WebhookItem): Promise<void> => {
    const endpoint = `${webhook.account_id}\n${webhook.id}`;
    let result: AttemptResult;
    let attemptedAt: Date;
    try {
      // The secret as of the slot write, which returned the endpoint as it is now: a rotation is used at once.
      const secret =
        webhook.encrypted_secret === undefined
          ? undefined
          : await deps.cipher.decrypt(webhook.encrypted_secret, webhook.id);
      attemptedAt = deps.now();
      const request = buildDeliveryRequest(webhook.url, job.event, secret, Math.floor(attemptedAt.getTime() / 1000));
      result = await postDelivery(webhook.url, request, {
        allowLoopback: deps.config.allowLoopbackWebhooks,
        timeoutMs: deps.replyTimeoutMs,
      });
    } catch (error) {
      // Nothing was sent: give the slot back and let SQS hand the job back.
      await settle(endpoint, { webhook, settlement: undefined });
      throw error;
    }
    deps.log.info('webhook delivery attempted', {
      ...logFields(job),
      succeeded: result.succeeded,
      statusCode: result.statusCode,
      error: result.error,
    });
    recordMetric(METRIC.webhookAttempts);
    recordMetric(result.succeeded ? METRIC.webhookSuccesses : METRIC.webhookFailures);
    const next = result.succeeded ? waiting.get(endpoint)?.shift() : undefined;
    const record: LoggedAttempt = {
      id: deps.newId(),
      webhook_id: webhook.id,
      event_id: job.event.id,
      event_type: job.event.event_type,
      attempt: job.attempt,
      attempted_at: attemptedAt.toISOString(),
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
      succeeded: result.succeeded,
      event: job.event,
    };
    if (next) {
      const logged = new Promise<void>((done, fail) =>
        handedOn.set(endpoint, [...(handedOn.get(endpoint) ?? []), { attempt: record, done, fail }]),
      );
      next(webhook);
      return logged;
    }
    const outcome = await settle(endpoint, {
      webhook,
      settlement: { attempt: record, failure: describeFailure(result) },
    });
    // A disabled or deleted endpoint receives nothing more, retries included.
    if (result.succeeded || outcome.kind !== 'counting') return;
    const retry = retryAfterFailure(job, deps.random);
    if (retry) await enqueueDelivery(deps, retry.job, retry.delaySeconds);
  };

  /**
   * Waits up to slotPollMs, or until this invocation gives slots of the endpoint back, for a success of the batch to
   * hand over its slot: the endpoint as its grant returned it, or undefined to try taking one. Whichever comes first
   * takes the waiter out of the line, so a slot is never handed to a job that has stopped waiting.
   */
  const handedSlot = (endpoint: string) =>
    new Promise<WebhookItem | undefined>((resolve) => {
      const line = waiting.get(endpoint) ?? [];
      waiting.set(endpoint, line);
      const take = (webhook: WebhookItem) => {
        clearTimeout(timer);
        resolve(webhook);
      };
      const giveUp = () => {
        const place = line.indexOf(take);
        if (place < 0) return; // handed a slot already
        line.splice(place, 1);
        clearTimeout(timer);
        resolve(undefined);
      };
      const timer = setTimeout(giveUp, deps.slotPollMs);
      line.push(take);
      void slotsFreed(endpoint).then(giveUp);
    });

  return async (job) => {
    const endpoint = `${job.event.account_id}\n${job.webhook_id}`;
    for (let poll = 0; poll <= SLOT_POLLS; poll++) {
      if (poll > 0) {
        const handed = await handedSlot(endpoint);
        if (handed) return attempt(job, handed);
      }
      const grant = await reserve(endpoint, job);
      if (grant.kind === 'granted') return attempt(job, grant.webhook);
      if (grant.kind === 'stopped') {
        deps.log.info('webhook delivery skipped', { ...logFields(job), reason: grant.reason });
        return;
      }
    }
    // Ten attempts are failing or in flight: wait for one to end (disabled endpoints drop the job next time).
    await enqueueDelivery(deps, job, SLOT_WAIT_SECONDS);
  };
}

const logFields = (job: DeliveryJob) => ({
  eventId: job.event.id,
  webhookId: job.webhook_id,
  accountId: job.event.account_id,
  attempt: job.attempt,
});

/**
 * Runs only in the worker whose conditional update disabled the endpoint, so the owner is mailed once. A failed mail
 * is logged rather than retried: the disable has committed, and a retried job would find the endpoint disabled.
 */
async function notifyOwnerOfDisable(deps: DeliveryDeps, webhook: WebhookItem): Promise<void> {
  recordMetric(METRIC.webhookDisables);
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
