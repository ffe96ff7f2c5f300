// Deliveries queue → receivers. One job is one attempt of one event at one endpoint: read the endpoint (and so its
// current secret) and the stored event, sign, POST, log the attempt; on failure count it toward the disable rule and
// queue the next attempt as a new, delayed message (the attempt number lives in the job, not in SQS receive counts).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getAccount } from '../../shared/domain/accounts/store.ts';
import { getDeps, type Deps } from '../../shared/deps.ts';
import {
  countFailure,
  deliveryJobSchema,
  endFailureStreak,
  enqueueDelivery,
  findStoredEvent,
  findWebhook,
  recordAttempt,
  reserveAttempt,
  retryAfterFailure,
  type DeliveryJob,
  type StoredEvent,
  type WebhookItem,
} from '../../shared/domain/webhooks/endpoints.ts';
import { checkWebhookUrl, guardedLookup } from '../../shared/webhooks/address-guard.ts';
import { formatDeliveryBody } from '../../shared/webhooks/chat-format.ts';
import { ownerMailer, type NotifyOwner } from '../../shared/webhooks/owner-mail.ts';
import { WEBHOOK_ID_HEADER } from '../../shared/webhooks/receiver.ts';
import { secretCipher, type SecretCipher } from '../../shared/webhooks/secret-cipher.ts';
import { SIGNATURE_HEADER, signPayload } from '../../shared/webhooks/signature.ts';

/** Spec: a receiver must answer with a 2xx within five seconds. */
export const REPLY_TIMEOUT_MS = 5000;
const EVENT_TYPE_HEADER = 'X-Webhook-Event';
const USER_AGENT = 'PetAPI-Webhooks/1.0';
/** A healthy endpoint frees slots within milliseconds: wait this long in the worker before giving the job back. */
const SLOT_POLL_MS = 20;
const SLOT_POLLS = 25;
/** How long a job that found no free attempt slot waits in the queue (it keeps its attempt number). */
const SLOT_WAIT_SECONDS = 1;

async function reserveSlotSoon(deps: DeliveryDeps, webhook: WebhookItem): Promise<boolean> {
  for (let poll = 0; poll < SLOT_POLLS; poll++) {
    if (await reserveAttempt(deps, webhook)) return true;
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
  }
  return false;
}

export interface DeliveryDeps extends Pick<Deps, 'ddb' | 'config' | 'log' | 'now' | 'newId' | 'random'> {
  cipher: SecretCipher;
  notifyOwner: NotifyOwner;
  /** REPLY_TIMEOUT_MS deployed; tests shorten it. */
  replyTimeoutMs: number;
}

export interface DeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/** The exact body and headers of one attempt, signed over the body as sent with the attempt's own time. */
export function buildDeliveryRequest(
  url: string,
  event: StoredEvent,
  secret: string | undefined,
  unixSeconds: number,
): DeliveryRequest {
  const body = formatDeliveryBody(url, {
    eventType: event.event_type,
    timestamp: event.occurred_at,
    resource: event.resource,
    countryCode: event.country_code ?? undefined,
  });
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [WEBHOOK_ID_HEADER]: event.id,
      [EVENT_TYPE_HEADER]: event.event_type,
      // Endpoints without a secret (created before signing existed) are sent unsigned, as the spec says.
      ...(secret !== undefined && { [SIGNATURE_HEADER]: signPayload(secret, body, unixSeconds) }),
    },
  };
}

export interface AttemptResult {
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Only a complete 2xx reply succeeds; redirects are never followed, so a 3xx fails like any other status. */
export function judgeReply(statusCode: number): Pick<AttemptResult, 'succeeded' | 'error'> {
  if (statusCode >= 200 && statusCode < 300) return { succeeded: true, error: null };
  return { succeeded: false, error: statusCode >= 300 && statusCode < 400 ? 'redirect not followed' : null };
}

export const describeFailure = (result: AttemptResult) => result.error ?? `HTTP ${result.statusCode}`;

interface PostOptions {
  allowLoopback: boolean;
  timeoutMs: number;
}

/**
 * One POST. The URL is checked again first, because an IP-literal host never reaches the DNS lookup; every name is
 * resolved through the address guard on a fresh connection, so the address actually connected to is the one checked.
 */
export async function postDelivery(
  url: string,
  request: DeliveryRequest,
  options: PostOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const checked = checkWebhookUrl(url, { allowLoopback: options.allowLoopback });
  const outcome = checked.ok
    ? await send(new URL(checked.url), request, options)
    : { statusCode: null, error: `url refused: ${checked.reason}` };
  const verdict =
    outcome.statusCode === null ? { succeeded: false, error: outcome.error } : judgeReply(outcome.statusCode);
  return { ...verdict, statusCode: outcome.statusCode, durationMs: Math.round(performance.now() - started) };
}

function send(
  target: URL,
  request: DeliveryRequest,
  { allowLoopback, timeoutMs }: PostOptions,
): Promise<{ statusCode: number | null; error: string | null }> {
  return new Promise((resolve) => {
    // The limit covers connecting, TLS, the request and the whole reply.
    const signal = AbortSignal.timeout(timeoutMs);
    const fail = (error: Error) =>
      resolve({ statusCode: null, error: signal.aborted ? `no reply within ${timeoutMs} ms` : error.message });
    const requestTo = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = requestTo(
      target,
      {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
        lookup: guardedLookup({ allowLoopback }),
        // No pooled sockets: a kept-alive connection would skip the lookup, and with it the address check.
        agent: false,
        signal,
      },
      (response) => {
        // The reply's body is not used, but it must arrive in time too.
        response.resume();
        response.on('end', () => resolve({ statusCode: response.statusCode ?? null, error: null }));
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
    outgoing.end(request.body);
  });
}

async function deliver(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
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

/** A failed job is reported by message id; SQS hands it back after the visibility timeout (and to the DLQ in the end). */
export function createDeliveryHandler(resolveDeps: () => DeliveryDeps) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = resolveDeps();
    const failed = await Promise.all(
      event.Records.map(async (record) => {
        try {
          await deliver(deps, deliveryJobSchema.parse(JSON.parse(record.body)));
          return [];
        } catch (error) {
          deps.log.error('webhook job failed; SQS will hand it back', { messageId: record.messageId, error });
          return [{ itemIdentifier: record.messageId }];
        }
      }),
    );
    return { batchItemFailures: failed.flat() };
  };
}

export const handler = createDeliveryHandler(() => {
  const deps = getDeps();
  return {
    ...deps,
    cipher: secretCipher(deps.config),
    notifyOwner: ownerMailer(deps.config),
    replyTimeoutMs: REPLY_TIMEOUT_MS,
  };
});
