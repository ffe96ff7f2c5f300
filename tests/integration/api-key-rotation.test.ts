// Key rotation with a grace period and administrators' revocation, against the real local stack. The grace periods
// here are a couple of seconds: the rule is the same for 24 hours, only the clock differs.
import { describe, expect, it } from 'vitest';
import { adminKey, api, createAccount } from '../support/api-client.ts';

const rotate = (key: string, grace_period_seconds: unknown) =>
  api('POST', '/accounts/api-key/rotate', { key, body: { grace_period_seconds } });
const features = (key: string) => api('GET', '/accounts/features', { key });
const until = (iso: string) => new Promise((r) => setTimeout(r, Math.max(0, Date.parse(iso) - Date.now()) + 200));

describe('API key rotation', () => {
  it('returns the new key once; the old key works until the grace period the caller chose ends, then answers 401', async () => {
    const account = await createAccount();
    await features(account.api_key); // cached by the warm function: the cache must not outlive the key either

    const rotated = await rotate(account.api_key, 2);
    const [oldDuringGrace, newKey] = [await features(account.api_key), await features(rotated.body.api_key)];
    await until(rotated.body.previous_key_expires_at);
    const oldAfterGrace = await features(account.api_key);

    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      api_key: expect.stringMatching(/^live_/),
      previous_key_expires_at: expect.any(String),
      grace_period_seconds: 2,
    });
    expect([oldDuringGrace.status, newKey.status]).toEqual([200, 200]);
    expect(oldAfterGrace.status).toBe(401);
    expect(oldAfterGrace.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'api_key_expired' });
    expect((await features(rotated.body.api_key)).status).toBe(200);
  });

  it('with a grace period of 0 the old key stops at once; a retiring key cannot rotate, and a second rotation ends it', async () => {
    const account = await createAccount();
    const immediate = await rotate(account.api_key, 0);
    expect((await features(account.api_key)).body).toMatchObject({ statusCode: 401, code: 'api_key_expired' });

    const second = await rotate(immediate.body.api_key, 3600);
    const byRetiring = await rotate(immediate.body.api_key, 0);
    expect(byRetiring.body).toMatchObject({ statusCode: 403, code: 'api_key_retiring' });
    expect((await features(immediate.body.api_key)).status).toBe(200);

    const third = await rotate(second.body.api_key, 60);
    expect((await features(immediate.body.api_key)).body).toMatchObject({ statusCode: 401, code: 'api_key_expired' });
    expect([(await features(second.body.api_key)).status, (await features(third.body.api_key)).status]).toEqual([
      200, 200,
    ]);
  });

  it('refuses a grace period outside 0 to 24 hours, a missing one, and a bearer token in place of the key', async () => {
    const account = await createAccount();
    for (const grace of [-1, 86_401, 1.5, '60', undefined]) {
      const res = await rotate(account.api_key, grace);
      expect(res.status, String(grace)).toBe(400);
    }
    const token = (await api('POST', '/auth/token', { key: account.api_key })).body.access_token;
    const withToken = await api('POST', '/accounts/api-key/rotate', { token, body: { grace_period_seconds: 0 } });
    expect(withToken.body).toMatchObject({ statusCode: 403, code: 'missing_credentials' });
    expect((await features(account.api_key)).status).toBe(200);
  });

  it('lets an administrator revoke every key of an account at once, one in its grace period too', async () => {
    const account = await createAccount();
    const rotated = await rotate(account.api_key, 3600);
    const [before, stranger] = [
      await features(account.api_key),
      await api('POST', `/accounts/${account.id}/api-key/revoke`, { key: rotated.body.api_key }),
    ];

    const revoked = await api('POST', `/accounts/${account.id}/api-key/revoke`, { key: adminKey() });

    expect(before.status).toBe(200);
    expect(stranger.body).toMatchObject({ statusCode: 403, code: 'admin_only' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({
      id: account.id,
      api_key: expect.stringMatching(/^live_/),
      revoked_at: expect.any(String),
    });
    for (const old of [account.api_key, rotated.body.api_key])
      expect((await features(old)).body).toMatchObject({ statusCode: 401, code: 'api_key_expired' });
    expect((await features(revoked.body.api_key)).status).toBe(200);
    const missing = await api('POST', '/accounts/no-such-account/api-key/revoke', { key: adminKey() });
    expect(missing.status).toBe(404);
  });
});
