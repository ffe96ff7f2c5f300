// The delivery process: one job is one attempt of one event at one endpoint, and the event travels in the job. One
// conditional write takes the attempt slot and returns the endpoint as it is now (status, URL, current secret); after
// the POST, one write gives the slot back and counts a failure toward the disable rule, next to the attempt's log.
// Within a consumer batch these writes are shared, and a slot freed by a success passes straight to the batch's next
// job for that endpoint (slot-state.ts keeps that bookkeeping). A failed attempt queues the next as a new, delayed job
// (the attempt number lives in the job).
import type { Deps } from '../../deps.ts';
import { METRIC, recordMetric } from '../../observability.ts';
import type { NotifyOwner } from '../../ports/owner-mail.ts';
import type { SecretCipher } from '../../ports/secret-cipher.ts';
import {
  type AttemptResult,
  buildDeliveryRequest,
  type DeliveryRequest,
  postDelivery,
} from '../../webhooks/transport.ts';
import { describeFailure } from '../../webhooks/failure.ts';
import { turnBatch, windowBatch } from '../../webhooks/turn-batch.ts';
import { getAccount } from '../accounts/store.ts';
import type { DeliveryStore, FailureOutcome, LoggedAttempt, SlotGrant } from './attempts.ts';
import { type DeliveryJob, enqueueDelivery, retryAfterFailure } from './delivery-queue.ts';
import { countRecoveryOutcome } from './recovery-progress.ts';
import { SlotState } from './slot-state.ts';
import type { WebhookItem } from './webhook.ts';

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

/** Sends one signed request to the receiver and judges its reply. */
export type PostAttempt = (url: string, request: DeliveryRequest) => Promise<AttemptResult>;

/** Receivers over HTTP(S) through the address guard (transport.ts), answering within `timeoutMs`. */
export const postToReceivers =
  (config: Pick<Deps['config'], 'allowLoopbackWebhooks'>, timeoutMs: number): PostAttempt =>
  (url, request) =>
    postDelivery(url, request, { allowLoopback: config.allowLoopbackWebhooks, timeoutMs });

export interface DeliveryDeps extends Pick<Deps, 'ddb' | 'config' | 'log' | 'now' | 'newId' | 'random'> {
  /** Slots, streak and log: attempts.ts's dynamoDeliveryStore, or the tests' in-memory fake. */
  store: DeliveryStore;
  cipher: SecretCipher;
  notifyOwner: NotifyOwner;
  /** postToReceivers deployed; the delivery process's own tests answer in-process. */
  post: PostAttempt;
}

/** An attempt that holds a slot and ended: what it sent and was answered, or nothing when nothing was sent. */
interface Ended {
  webhook: WebhookItem;
  attempt?: { logged: LoggedAttempt; failure: string };
}

/**
 * The delivery process for one consumer batch (create one per invocation): `deliver(job)` for each of its jobs, all
 * started in the same turn. Jobs to the same endpoint take their slots in one write; their attempts settle and log in
 * one write each once all have finished, or in several when replies are more than SETTLE_LINGER_MS apart. While a job
 * of the batch waits for a slot of the endpoint, a successful attempt hands its slot to it instead of settling: no
 * write gives the slot back or takes it again, and the attempt is logged and counted with the next settlement (a
 * success that passed its slot on needs no write of its own: it neither retries nor can disable). A failure keeps its
 * slot for the streak, as always, so it never passes it on.
 */
export function deliveryBatch(deps: DeliveryDeps): (job: DeliveryJob) => Promise<void> {
  const slots = new SlotState();
  const reserve = turnBatch(async (endpoint, jobs: DeliveryJob[]): Promise<SlotGrant[]> => {
    const first = jobs[0]!;
    const grant = await deps.store.reserveSlots(first.event.account_id, first.webhook_id, slotsToTake(jobs.length));
    if (grant.kind !== 'granted') return jobs.map(() => grant);
    slots.granted(endpoint, grant.slots);
    return jobs.map((_, n) => (n < grant.slots ? grant : { kind: 'busy' }));
  });
  const settle = windowBatch((endpoint, ended: Ended[]) => settleTogether(deps, slots, endpoint, ended), {
    lingerMs: SETTLE_LINGER_MS,
    full: (endpoint, size) => slots.covers(endpoint, size),
  });

  /** One attempt on a held slot: send it, then hand the slot on (a success, a job waiting) or settle it. */
  const attempt = async (job: DeliveryJob, webhook: WebhookItem): Promise<void> => {
    const endpoint = endpointKey(webhook.account_id, webhook.id);
    let logged: LoggedAttempt;
    let result: AttemptResult;
    try {
      ({ logged, result } = await send(deps, job, webhook));
    } catch (error) {
      // Nothing was sent: give the slot back and let SQS hand the job back.
      await settle(endpoint, { webhook });
      throw error;
    }
    const handedOn = result.succeeded ? slots.handOn(endpoint, webhook, logged) : undefined;
    if (handedOn) return handedOn.then(() => recoveryEnded(job, 'delivered'));
    const outcome = await settle(endpoint, { webhook, attempt: { logged, failure: describeFailure(result) } });
    if (result.succeeded) return recoveryEnded(job, 'delivered');
    // A disabled or deleted endpoint receives nothing more, retries included.
    const retry = outcome.kind === 'counting' ? retryAfterFailure(job, deps.random) : undefined;
    if (retry) await enqueueDelivery(deps, retry.job, retry.delaySeconds);
    else await recoveryEnded(job, 'failed');
  };
  /** A recovery's job that ended for good is counted in its progress. */
  const recoveryEnded = async (job: DeliveryJob, outcome: 'delivered' | 'failed') => {
    if (job.recovery) await countRecoveryOutcome(deps, job.recovery, outcome);
  };

  return async (job) => {
    const endpoint = endpointKey(job.event.account_id, job.webhook_id);
    for (let poll = 0; poll <= SLOT_POLLS; poll++) {
      if (poll > 0) {
        const handed = await slots.waitForSlot(endpoint, SLOT_POLL_MS);
        if (handed) return attempt(job, handed);
      }
      const grant = await reserve(endpoint, job);
      if (grant.kind === 'granted') return attempt(job, grant.webhook);
      if (grant.kind === 'stopped') {
        deps.log.info('webhook delivery skipped', { ...logFields(job), reason: grant.reason });
        return recoveryEnded(job, 'failed');
      }
    }
    // Ten attempts are failing or in flight: wait for one to end (disabled endpoints drop the job next time).
    await enqueueDelivery(deps, job, SLOT_WAIT_SECONDS);
  };
}

const endpointKey = (accountId: string, webhookId: string) => `${accountId}\n${webhookId}`;

/**
 * Signs and POSTs the job's event with the endpoint's secret as of the slot write (which returned the endpoint as it
 * is now, so a rotation is used at once), and returns the receiver's answer with the attempt as the log keeps it.
 */
async function send(
  deps: DeliveryDeps,
  job: DeliveryJob,
  webhook: WebhookItem,
): Promise<{ logged: LoggedAttempt; result: AttemptResult }> {
  const secret =
    webhook.encrypted_secret === undefined
      ? undefined
      : await deps.cipher.decrypt(webhook.encrypted_secret, webhook.id);
  const attemptedAt = deps.now();
  const request = buildDeliveryRequest(webhook.url, job.event, secret, Math.floor(attemptedAt.getTime() / 1000));
  const result = await deps.post(webhook.url, request);
  deps.log.info('webhook delivery attempted', {
    ...logFields(job),
    succeeded: result.succeeded,
    statusCode: result.statusCode,
    error: result.error,
  });
  recordMetric(METRIC.webhookAttempts);
  recordMetric(result.succeeded ? METRIC.webhookSuccesses : METRIC.webhookFailures);
  return { result, logged: loggedAttempt(deps, job, attemptedAt, result) };
}

/** The log entry of one attempt: what the receiver answered, when and how fast. */
const loggedAttempt = (
  deps: Pick<DeliveryDeps, 'newId'>,
  job: DeliveryJob,
  attemptedAt: Date,
  result: AttemptResult,
): LoggedAttempt => ({
  id: deps.newId(),
  webhook_id: job.webhook_id,
  event_id: job.event.id,
  event_type: job.event.event_type,
  attempt: job.attempt,
  attempted_at: attemptedAt.toISOString(),
  status_code: result.statusCode,
  error: result.error,
  duration_ms: result.durationMs,
  succeeded: result.succeeded,
  response: result.response,
  event: job.event,
});

/**
 * Settles the attempts of one endpoint that ended together, with the successes that passed their slot on before them,
 * in one slot write and one log write sent in parallel; waiting jobs are woken as soon as the slot write lands. The
 * successes that passed their slot on end with these writes.
 */
async function settleTogether(
  deps: DeliveryDeps,
  slots: SlotState,
  endpoint: string,
  ended: Ended[],
): Promise<FailureOutcome[]> {
  const passedOn = slots.settling(endpoint, ended.length);
  const { webhook } = ended[0]!;
  const finished = ended.flatMap(({ attempt }) => (attempt ? [attempt] : []));
  const attempts = [...passedOn.map(({ attempt }) => attempt), ...finished.map(({ logged }) => logged)];
  const written = Promise.all([
    deps.store
      .settleSlots(webhook.account_id, webhook.id, {
        slots: ended.length,
        outcomes: attempts.map((attempt) => attempt.succeeded),
        streakSeen: webhook.consecutive_failures,
        lastError: finished.findLast(({ logged }) => !logged.succeeded)?.failure,
      })
      .then((outcome) => {
        slots.freed(endpoint);
        return outcome;
      }),
    deps.store.recordAttempts(attempts),
  ]);
  written.then(
    () => {
      for (const success of passedOn) success.written();
    },
    (error: unknown) => {
      for (const success of passedOn) success.failed(error);
    },
  );
  const [outcome] = await written;
  if (outcome.kind === 'disabled_now') await notifyOwnerOfDisable(deps, outcome.webhook);
  return ended.map(() => outcome);
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
