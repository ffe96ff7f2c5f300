// Per-account request-rate limits: one counter item per account, rate class and fixed window in the requests table,
// taken by a conditional update (`used < limit`), so the limit is exact under any concurrency and costs one write
// unit per request (docs/ARCHITECTURE.md#request-guards-idempotency-and-rate-limits).
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { rateWindowKey } from '../../db/keys.ts';
import { isConditionFailure } from '../../db/errors.ts';
import { REQUESTS_TABLE } from '../../db/table.ts';
import type { Deps } from '../../deps.ts';
import { tooManyRequests } from '../../errors.ts';
import type { Account } from './account.ts';
import { RATE_CLASSES, rateLimitOf, type RateClass } from './plans.ts';

type RateDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/** Where one account's window of one rate class stands. */
export interface RateWindow {
  rateClass: RateClass;
  limit: number;
  windowSeconds: number;
  used: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
  resetsAt: Date;
}

/** Counters outlive their window by an hour, then DynamoDB's TTL sweeper removes them. */
const KEEP_AFTER_WINDOW_SECONDS = 3600;

export function requestsTable(deps: Pick<Deps, 'config'>): string {
  const name = deps.config.requestsTableName;
  if (!name) throw new Error('REQUESTS_TABLE_NAME is not set: guarded routes need the requests table');
  return name;
}

function windowOf(account: Account, rateClass: RateClass, now: Date) {
  const { limit, windowSeconds } = rateLimitOf(account.plan, rateClass);
  const windowMs = windowSeconds * 1000;
  const startMs = Math.floor(now.getTime() / windowMs) * windowMs;
  const endMs = startMs + windowMs;
  const resetSeconds = Math.max(1, Math.ceil((endMs - now.getTime()) / 1000));
  return { limit, windowSeconds, startMs, endMs, resetSeconds, key: rateWindowKey(account.id, rateClass, startMs) };
}

const describeWindow = (rateClass: RateClass, w: ReturnType<typeof windowOf>, used: number): RateWindow => ({
  rateClass,
  limit: w.limit,
  windowSeconds: w.windowSeconds,
  used,
  remaining: Math.max(0, w.limit - used),
  resetSeconds: w.resetSeconds,
  resetsAt: new Date(w.endMs),
});

/** Takes one request from the account's current window, or throws 429 `rate_limit_exceeded` once it is used up. */
export async function takeRequest(deps: RateDeps, account: Account, rateClass: RateClass): Promise<RateWindow> {
  const w = windowOf(account, rateClass, deps.now());
  try {
    const { Attributes } = await deps.ddb.send(
      new UpdateCommand({
        TableName: requestsTable(deps),
        Key: w.key,
        UpdateExpression: 'SET #expiration = if_not_exists(#expiration, :expiration) ADD used :one',
        ConditionExpression: 'attribute_not_exists(used) OR used < :limit',
        ExpressionAttributeNames: { '#expiration': REQUESTS_TABLE.ttlAttribute },
        ExpressionAttributeValues: {
          ':one': 1,
          ':limit': w.limit,
          ':expiration': Math.ceil(w.endMs / 1000) + KEEP_AFTER_WINDOW_SECONDS,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return describeWindow(rateClass, w, Number(Attributes?.used));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const verb = rateClass === 'models' ? 'model requests' : 'write requests';
    throw tooManyRequests(
      `The ${account.plan} plan allows ${w.limit} ${verb} per ${w.windowSeconds} seconds; try again in ${w.resetSeconds} s`,
      {
        code: 'rate_limit_exceeded',
        retryAfterSeconds: w.resetSeconds,
        details: { plan: account.plan, rate_class: rateClass, limit: w.limit, window_seconds: w.windowSeconds },
        headers: rateLimitHeaders(describeWindow(rateClass, w, w.limit)),
      },
    );
  }
}

/** The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): limit, what is left, seconds until reset. */
export function rateLimitHeaders(window: RateWindow): Record<string, string> {
  return {
    'ratelimit-limit': String(window.limit),
    'ratelimit-remaining': String(window.remaining),
    'ratelimit-reset': String(window.resetSeconds),
    'ratelimit-policy': `${window.limit};w=${window.windowSeconds}`,
  };
}

/** Every rate class's current window for the account: one BatchGetItem, strongly consistent. */
export async function rateWindowsOf(deps: RateDeps, account: Account): Promise<RateWindow[]> {
  const now = deps.now();
  const windows = RATE_CLASSES.map((rateClass) => ({ rateClass, w: windowOf(account, rateClass, now) }));
  const table = requestsTable(deps);
  const { Responses } = await deps.ddb.send(
    new BatchGetCommand({
      RequestItems: { [table]: { Keys: windows.map(({ w }) => w.key), ConsistentRead: true } },
    }),
  );
  const used = new Map((Responses?.[table] ?? []).map((item) => [String(item.id), Number(item.used ?? 0)]));
  return windows.map(({ rateClass, w }) => describeWindow(rateClass, w, used.get(w.key.id) ?? 0));
}

/** The account's plan and where each of its windows stands, as `GET /accounts/quota` shows them. */
export async function rateLimitsOf(deps: RateDeps, account: Account) {
  const windows = await rateWindowsOf(deps, account);
  return {
    plan: account.plan,
    ...(Object.fromEntries(
      windows.map((w) => [
        w.rateClass,
        {
          limit: w.limit,
          window_seconds: w.windowSeconds,
          used: w.used,
          remaining: w.remaining,
          resets_at: w.resetsAt.toISOString(),
        },
      ]),
    ) as Record<
      RateClass,
      { limit: number; window_seconds: number; used: number; remaining: number; resets_at: string }
    >),
  };
}
