// Operational events: trouble with one of the account's endpoints, told to its other endpoints. Both come from
// committed writes like every other event (shared/events/from-stream.ts): an endpoint item turning disabled, and the
// log item of an event's last failed attempt. The rules that keep them from looping live here.
import * as z from 'zod/mini';
import { isFinalAttempt } from '../../webhooks/backoff.ts';
import { describeFailure } from '../../webhooks/failure.ts';

export const ENDPOINT_DISABLED = 'webhook.endpoint.disabled';
export const ATTEMPTS_EXHAUSTED = 'webhook.attempts.exhausted';

/** Every event named `webhook.*` is about the webhooks themselves: the two above and `webhook.test`. */
const WEBHOOK_EVENT_PREFIX = 'webhook.';

export const endpointDisabledResource = z.object({
  webhook_id: z.string(),
  url: z.string(),
  description: z.string(),
  /** Why it was disabled: the failure streak and its last error, or the operator's reason. */
  reason: z.string(),
  /** The last failed attempt's error; null when an operator disabled it. */
  last_error: z.nullable(z.string()),
  consecutive_failures: z.number(),
  disabled_at: z.string(),
});

export const attemptsExhaustedResource = z.object({
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempts: z.number(),
  /** The last attempt's HTTP status; null when no reply came (timeout, refused connection). */
  last_status_code: z.nullable(z.number()),
  /** What failed, as the disable reason says it: `HTTP 503`, `no reply within 5000 ms`, … */
  last_error: z.string(),
  last_attempted_at: z.string(),
});

type Item = Record<string, unknown>;

/** An endpoint item's change that disabled it: enabled before, disabled after (a disable commits once). */
export const isDisabling = (next: Item, previous: Item | undefined) =>
  previous?.status === 'enabled' && next.status === 'disabled';

export const endpointDisabledBody = (endpoint: Item) => ({
  webhook_id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  reason: endpoint.disabled_reason,
  last_error: endpoint.last_error ?? null,
  consecutive_failures: endpoint.consecutive_failures ?? 0,
  disabled_at: endpoint.disabled_at,
});

/**
 * Whether a logged attempt ends its event's attempts unanswered. Never for an event about the webhooks themselves:
 * an exhausted `webhook.attempts.exhausted` or `webhook.endpoint.disabled` makes no notice of its own, so trouble at
 * the receivers of notices cannot feed itself (and a `webhook.test` is answered in its endpoint's log).
 */
export const exhaustsAttempts = (attempt: Item) =>
  attempt.succeeded === false &&
  typeof attempt.attempt === 'number' &&
  isFinalAttempt(attempt.attempt) &&
  typeof attempt.event_type === 'string' &&
  !attempt.event_type.startsWith(WEBHOOK_EVENT_PREFIX);

export const attemptsExhaustedBody = (attempt: Item) => ({
  webhook_id: attempt.webhook_id,
  event_id: attempt.event_id,
  event_type: attempt.event_type,
  attempts: attempt.attempt,
  last_status_code: attempt.status_code ?? null,
  last_error: describeFailure({
    error: typeof attempt.error === 'string' ? attempt.error : null,
    statusCode: typeof attempt.status_code === 'number' ? attempt.status_code : null,
  }),
  last_attempted_at: attempt.attempted_at,
});

/** The endpoint an operational event is about, which never receives it; undefined for every other event. */
export function endpointConcerned(event: { type: string; resource: Item }): string | undefined {
  if (event.type !== ENDPOINT_DISABLED && event.type !== ATTEMPTS_EXHAUSTED) return undefined;
  return String(event.resource.webhook_id);
}
