// The spec's retry guidance as a fetch wrapper: retry only 429, 500 and 503 (and network errors where a repeat cannot
// act twice), waiting 1, 2, 4, 8 s plus a random fraction of a second, or the server's Retry-After when longer.

export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt (default 4, so at most 5 attempts). 0 turns retrying off. */
  maxRetries?: number;
  /** The first wait; each further one doubles it (default 1000 ms: 1, 2, 4, 8 s). */
  baseDelayMs?: number;
  /** Up to this much random time is added to each wait, so clients do not retry in step (default 1000 ms). */
  jitterMs?: number;
  /** Statuses worth another attempt (default 429, 500, 503: the spec's list). */
  statuses?: readonly number[];
  /** A Retry-After longer than this is not waited for: the answer is returned as it is (default 60 s). */
  maxRetryAfterMs?: number;
  /** For tests: a number in [0, 1) (default Math.random). */
  random?: () => number;
  /** For tests: waits `ms`, rejecting when `signal` aborts (default a timer). */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** 409 answered to a repeat while the first request with its key still runs; it carries Retry-After. */
const IN_PROGRESS_CODE = 'idempotency_request_in_progress';
/** Methods HTTP defines as idempotent: a repeat after a lost answer changes nothing more. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

type Policy = Required<RetryOptions>;

function policyOf(options: RetryOptions): Policy {
  return {
    maxRetries: 4,
    baseDelayMs: 1000,
    jitterMs: 1000,
    statuses: [429, 500, 503],
    maxRetryAfterMs: 60_000,
    random: Math.random,
    sleep: abortableSleep,
    ...options,
  };
}

/**
 * Wraps `fetchImpl` with the retry policy. Each attempt sends a clone of the request, so bodies (JSON, FormData,
 * Blobs) go out whole every time, with the same headers: a write's Idempotency-Key is the same on every retry.
 */
export function retryingFetch(fetchImpl: FetchLike, options: RetryOptions = {}): FetchLike {
  const policy = policyOf(options);
  return async (input, init) => {
    const request = init === undefined ? input : new Request(input, init);
    const repeatable = IDEMPOTENT_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_KEY_HEADER);
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= policy.maxRetries;
      let response: Response;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        if (last || !repeatable || request.signal.aborted) throw error;
        await policy.sleep(backoff(policy, attempt), request.signal);
        continue;
      }
      const wait = last ? undefined : await retryWait(policy, attempt, request, response);
      if (wait === undefined) return response;
      await response.body?.cancel();
      await policy.sleep(wait, request.signal);
    }
  };
}

function backoff(policy: Policy, attempt: number): number {
  return policy.baseDelayMs * 2 ** attempt + policy.random() * policy.jitterMs;
}

/** How long to wait before the next attempt, or undefined when the response is final. */
async function retryWait(policy: Policy, attempt: number, request: Request, response: Response) {
  if (!(policy.statuses.includes(response.status) || (await inProgressRepeat(request, response)))) return undefined;
  const delay = backoff(policy, attempt);
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  if (retryAfter === undefined || retryAfter <= delay) return delay;
  return retryAfter > policy.maxRetryAfterMs ? undefined : retryAfter;
}

/** A retry that reached the server while the first attempt with the same key was still running there. */
async function inProgressRepeat(request: Request, response: Response): Promise<boolean> {
  if (response.status !== 409 || !request.headers.has(IDEMPOTENCY_KEY_HEADER)) return false;
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  return (body as { code?: unknown } | undefined)?.code === IN_PROGRESS_CODE;
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function abortableSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
