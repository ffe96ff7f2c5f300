// Idempotency keys and per-account rate limits against the real local stack (DynamoDB Local requests table).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../shared/domain/accounts/plans.ts';
import { adminKey, api, createAccount } from '../support/api-client.ts';

let imageIds: string[];
beforeAll(async () => {
  const key = (await createAccount()).api_key;
  imageIds = (await api('GET', '/images/search?limit=10&order=ASC', { key })).body.map((i: { id: string }) => i.id);
});

const vote = (apiKey: string, body: Record<string, unknown>, idempotencyKey?: string) =>
  api('POST', '/votes', {
    key: apiKey,
    body,
    ...(idempotencyKey !== undefined && { headers: { 'idempotency-key': idempotencyKey } }),
  });

/** The account's live vote count, kept by the same transactions that write votes. */
const votesOf = async (accountId: string): Promise<number> =>
  (await api('GET', `/accounts/${accountId}/overview`, { key: adminKey() })).body.counts.votes;

describe('Idempotency-Key', () => {
  it('records one vote for ten parallel POSTs with one key; every answer is that vote or 409 in flight, and retried 409s replay it', async () => {
    const account = await createAccount();
    const key = randomUUID();
    const body = { image_id: imageIds[0], value: 1, sub_id: 'idem-parallel' };

    const wave = await Promise.all(Array.from({ length: 10 }, () => vote(account.api_key, body, key)));

    // Stripe's rule: a request that arrives while the first is still running is refused with 409 (nothing runs),
    // one that arrives after it finished gets the stored answer. Which of the ten fall in which group depends on
    // timing, so the test asserts the partition and then retries the 409s as a client would after Retry-After.
    const done = wave.filter((r) => r.status === 200);
    const inFlight = wave.filter((r) => r.status === 409);
    expect(done.length + inFlight.length).toBe(10);
    expect(done.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const r of inFlight) {
      expect(r.body).toMatchObject({ statusCode: 409, code: 'idempotency_request_in_progress', path: '/v1/votes' });
      expect(r.headers.get('retry-after')).toBe('1');
    }
    const retried = await Promise.all(inFlight.map(() => vote(account.api_key, body, key)));
    const answers = [...done, ...retried];
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await votesOf(account.id)).toBe(1);
  });

  it('refuses the same key with a different body (422) and leaves other keys and key-less requests alone', async () => {
    const account = await createAccount();
    const key = randomUUID();
    const first = await vote(account.api_key, { image_id: imageIds[1], value: 1, sub_id: 'idem-reuse' }, key);
    const reused = await vote(account.api_key, { image_id: imageIds[1], value: 0, sub_id: 'idem-reuse' }, key);
    const otherKey = await vote(
      account.api_key,
      { image_id: imageIds[1], value: 1, sub_id: 'idem-reuse' },
      randomUUID(),
    );
    const noKey = await vote(account.api_key, { image_id: imageIds[1], value: 1, sub_id: 'idem-reuse' });

    expect(first.status).toBe(200);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      code: 'idempotency_key_reused',
      path: '/v1/votes',
    });
    expect([otherKey.status, noKey.status]).toEqual([200, 200]);
    expect(await votesOf(account.id)).toBe(3);
  });

  it("scopes keys by account: another account's request with the same key runs as its own", async () => {
    const [a, b] = await Promise.all([createAccount(), createAccount()]);
    const key = randomUUID();
    const body = { image_id: imageIds[2], value: 1, sub_id: 'idem-scope' };
    const [fromA, fromB] = [await vote(a.api_key, body, key), await vote(b.api_key, body, key)];

    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromB.body.id).not.toBe(fromA.body.id);
    expect(fromB.headers.get('idempotent-replayed')).toBeNull();
  });

  it("stores the domain's refusal (400) and replays it; refuses keys that are empty, too long or not visible ASCII", async () => {
    const account = await createAccount();
    const key = randomUUID();
    const body = { image_id: 'no-such-image', value: 1 };
    const first = await vote(account.api_key, body, key);
    const again = await vote(account.api_key, body, key);

    expect(first.body).toMatchObject({ statusCode: 400, code: 'image_not_found' });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    for (const bad of ['x'.repeat(256), 'has space', 'ümlaut']) {
      const res = await vote(account.api_key, { image_id: imageIds[0], value: 1 }, bad);
      expect(res.body, bad).toMatchObject({ statusCode: 400, code: 'invalid_idempotency_key' });
    }
  });
});

describe('per-account rate limits', () => {
  /** Fixed windows: start the burst early in a window so it cannot straddle two (at most one window's wait). */
  async function startOfAWindow(windowSeconds: number): Promise<void> {
    const intoWindow = (Date.now() / 1000) % windowSeconds;
    if (intoWindow > windowSeconds - 20)
      await new Promise((r) => setTimeout(r, (windowSeconds - intoWindow + 1) * 1000));
  }

  it('lets exactly the plan limit of 25 parallel writes through, answers the rest 429 with Retry-After and RateLimit headers', async () => {
    const account = await createAccount({ plan: 'free' });
    const { limit, windowSeconds } = PLANS.free.writes;
    await startOfAWindow(windowSeconds);

    const wave = await Promise.all(
      Array.from({ length: 25 }, (_, n) =>
        vote(account.api_key, { image_id: imageIds[n % imageIds.length], value: 1, sub_id: 'limited' }),
      ),
    );

    const passed = wave.filter((r) => r.status === 200);
    const refused = wave.filter((r) => r.status === 429);
    expect([passed.length, refused.length]).toEqual([limit, 25 - limit]);
    // Each passed request took its own place in the window: remaining counts down without a gap or a repeat.
    expect(passed.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(
      Array.from({ length: limit }, (_, n) => n),
    );
    for (const r of refused) {
      expect(r.body).toMatchObject({
        statusCode: 429,
        error: 'Too Many Requests',
        code: 'rate_limit_exceeded',
        plan: 'free',
        rate_class: 'writes',
        limit,
        window_seconds: windowSeconds,
      });
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
      expect(r.headers.get('ratelimit-limit')).toBe(String(limit));
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      expect(r.headers.get('ratelimit-reset')).toBe(String(retryAfter));
    }
    expect(await votesOf(account.id)).toBe(limit);
    const quota = await api('GET', '/accounts/quota', { key: account.api_key });
    expect(quota.body.rate_limits).toMatchObject({
      plan: 'free',
      writes: { limit, window_seconds: windowSeconds, used: limit, remaining: 0 },
      models: { limit: PLANS.free.models.limit, used: 0 },
    });
  });

  it('keeps reads and administrators outside the write limit, and follows a plan change at once', async () => {
    const account = await createAccount({ plan: 'free' });
    await startOfAWindow(PLANS.free.writes.windowSeconds);
    const reads = await Promise.all(
      Array.from({ length: 15 }, () => api('GET', '/favourites', { key: account.api_key })),
    );
    expect(reads.every((r) => r.status === 200 && r.headers.get('ratelimit-limit') === null)).toBe(true);

    const upgrade = await api('PATCH', `/accounts/${account.id}`, { key: adminKey(), body: { plan: 'pro' } });
    expect(upgrade.body.plan).toBe('pro');
    const res = await vote(account.api_key, { image_id: imageIds[0], value: 1, sub_id: 'upgraded' });
    expect(res.headers.get('ratelimit-limit')).toBe(String(PLANS.pro.writes.limit));
  });
});
