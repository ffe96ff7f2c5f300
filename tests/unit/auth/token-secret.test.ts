import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../../shared/config.ts';
import { clearTokenSecretCache, getTokenSecret } from '../../../shared/auth/token-secret.ts';

const config = (overrides: Partial<Config>): Config => ({
  ...loadConfig({
    TABLE_NAME: 't',
    AWS_SESSION_TOKEN: 'session-token',
    TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:token-AbCdEf',
  }),
  ...overrides,
});
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the bearer-token signing secret', () => {
  afterEach(() => clearTokenSecretCache());

  it('comes from TOKEN_SECRET in local mode, without any network call', async () => {
    const fetchFn = vi.fn();
    const secret = await getTokenSecret(
      { config: config({ tokenSecret: 'local-secret-local-secret-local-secret' }), now: () => new Date() },
      fetchFn,
    );

    expect(decode(secret)).toBe('local-secret-local-secret-local-secret');
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('is read deployed through the Parameters and Secrets extension, authenticated with the session token', async () => {
    const fetchFn = vi.fn(async () => new Response(JSON.stringify({ SecretString: 'from-secrets-manager' })));

    const secret = await getTokenSecret({ config: config({}), now: () => new Date() }, fetchFn as typeof fetch);

    expect(decode(secret)).toBe('from-secrets-manager');
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(
      'http://localhost:2773/secretsmanager/get?secretId=arn%3Aaws%3Asecretsmanager%3Aeu-west-1%3A111122223333%3Asecret%3Atoken-AbCdEf',
    );
    expect(init.headers).toEqual({ 'X-Aws-Parameters-Secrets-Token': 'session-token' });
  });

  it('is cached for five minutes', async () => {
    const fetchFn = vi.fn(async () => new Response(JSON.stringify({ SecretString: 's' })));
    let now = new Date('2026-11-22T10:00:00Z');
    const deps = { config: config({}), now: () => now };

    await getTokenSecret(deps, fetchFn as typeof fetch);
    await getTokenSecret(deps, fetchFn as typeof fetch);
    now = new Date('2026-11-22T10:05:01Z');
    await getTokenSecret(deps, fetchFn as typeof fetch);

    expect(fetchFn).toHaveBeenCalledTimes(2);
  });

  it('fails loudly when the extension answers an error', async () => {
    const fetchFn = vi.fn(async () => new Response('denied', { status: 403 }));

    await expect(
      getTokenSecret({ config: config({}), now: () => new Date() }, fetchFn as typeof fetch),
    ).rejects.toThrow('403');
  });
});
