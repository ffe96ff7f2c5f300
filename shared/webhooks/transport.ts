// One signed POST to a receiver: the exact body and headers of an attempt, the address check on every connection,
// the five-second reply limit, and what counts as success. No storage: the delivery process in domain/webhooks uses it.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { checkWebhookUrl, guardedLookup } from './address-guard.ts';
import { BodyPrefix, type ResponseExcerpt } from './response-excerpt.ts';
import { formatDeliveryBody } from './chat-format.ts';
import { WEBHOOK_ID_HEADER } from './receiver.ts';
import { SIGNATURE_HEADER, signPayload, standardWebhookHeaders, standardWebhookKey } from './signature.ts';

/** Spec: a receiver must answer with a 2xx within five seconds. */
export const REPLY_TIMEOUT_MS = 5000;

const EVENT_TYPE_HEADER = 'X-Webhook-Event';

const USER_AGENT = 'PetAPI-Webhooks/1.0';

/** What an attempt sends of an event, in the event envelope's own field names (the core's stored event fits it). */
export interface DeliveredEvent {
  id: string;
  event_type: string;
  occurred_at: string;
  resource: Readonly<Record<string, unknown>>;
  country_code?: string | null | undefined;
}

export interface DeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/** The exact body and headers of one attempt, signed over the body as sent with the attempt's own time. */
export function buildDeliveryRequest(
  url: string,
  event: DeliveredEvent,
  secret: string | undefined,
  unixSeconds: number,
): DeliveryRequest {
  const body = formatDeliveryBody(url, {
    eventType: event.event_type,
    timestamp: event.occurred_at,
    resource: event.resource,
    countryCode: event.country_code ?? undefined,
  });
  const standardKey = secret === undefined ? undefined : standardWebhookKey(secret);
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [WEBHOOK_ID_HEADER]: event.id,
      [EVENT_TYPE_HEADER]: event.event_type,
      // Endpoints without a secret (created before signing existed) are sent unsigned, as the spec says.
      ...(secret !== undefined && { [SIGNATURE_HEADER]: signPayload(secret, body, unixSeconds) }),
      // The same event id as X-Webhook-Id, so it too stays the same across retries and redeliveries.
      ...(standardKey !== undefined && standardWebhookHeaders(standardKey, event.id, body, unixSeconds)),
    },
  };
}

export interface AttemptResult {
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** What the receiver answered, for the log; null when no reply came. */
  response: ResponseExcerpt | null;
}

/** Only a complete 2xx reply succeeds; redirects are never followed, so a 3xx fails like any other status. */
export function judgeReply(statusCode: number): Pick<AttemptResult, 'succeeded' | 'error'> {
  if (statusCode >= 200 && statusCode < 300) return { succeeded: true, error: null };
  return { succeeded: false, error: statusCode >= 300 && statusCode < 400 ? 'redirect not followed' : null };
}

interface PostOptions {
  allowLoopback: boolean;
  timeoutMs: number;
}

/**
 * Idle connections close after this long: below the five seconds that Node's servers (and many others) keep an idle
 * connection open, so we rarely send on one the receiver is closing.
 */
const IDLE_CONNECTION_MS = 4000;

/**
 * Kept-alive connections per container, one pool per scheme and address policy (pools are keyed by host and port
 * only, so a policy never reuses another's connections). A pooled connection was opened through the address guard, so it goes to an address that was checked when it was opened; reusing it saves a
 * connection (and a TLS handshake) per attempt and cannot reach an address the guard refused.
 */
const agents = new Map<string, HttpAgent>();

function agentFor(protocol: string, allowLoopback: boolean): HttpAgent {
  const key = `${protocol}${allowLoopback}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One POST. The URL is checked again first, because an IP-literal host never reaches the DNS lookup; every name is
 * resolved through the address guard whenever a connection is opened, so the address actually connected to is the
 * one checked (a kept-alive connection was checked when it was opened).
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
    : { statusCode: null, error: `url refused: ${checked.reason}`, response: null };
  const verdict =
    outcome.statusCode === null ? { succeeded: false, error: outcome.error } : judgeReply(outcome.statusCode);
  return {
    ...verdict,
    statusCode: outcome.statusCode,
    response: outcome.response,
    durationMs: Math.round(performance.now() - started),
  };
}

function send(
  target: URL,
  request: DeliveryRequest,
  { allowLoopback, timeoutMs }: PostOptions,
): Promise<{ statusCode: number | null; error: string | null; response: ResponseExcerpt | null }> {
  return new Promise((resolve) => {
    // The limit covers connecting, TLS, the request and the whole reply.
    const signal = AbortSignal.timeout(timeoutMs);
    const requestTo = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const post = (pooled: boolean): void => {
      let replied = false;
      const outgoing = requestTo(
        target,
        {
          method: 'POST',
          headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
          lookup: guardedLookup({ allowLoopback }),
          agent: pooled ? agentFor(target.protocol, allowLoopback) : false,
          signal,
        },
        (response) => {
          replied = true;
          // The whole reply must arrive in time; its start is kept for the log.
          const prefix = new BodyPrefix();
          response.on('data', (chunk: Buffer) => prefix.add(chunk));
          response.on('end', () =>
            resolve({
              statusCode: response.statusCode ?? null,
              error: null,
              response: prefix.excerpt(response.headers),
            }),
          );
          response.on('error', fail);
        },
      );
      const fail = (error: Error) => {
        // A kept-alive connection the receiver closed meanwhile fails before any reply: send once more on a new one.
        const closedMeanwhile = 'code' in error && error.code === 'ECONNRESET' && outgoing.reusedSocket && !replied;
        if (pooled && closedMeanwhile && !signal.aborted) return post(false);
        resolve({
          statusCode: null,
          error: signal.aborted ? `no reply within ${timeoutMs} ms` : error.message,
          response: null,
        });
      };
      outgoing.on('error', fail);
      outgoing.end(request.body);
    };
    post(true);
  });
}
