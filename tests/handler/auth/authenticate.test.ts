import { SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../shared/http/route-def.ts';
import { AUTH_CACHE_MAX_ENTRIES, authCacheSize, authenticate } from '../../../shared/auth/authenticate.ts';
import { issueToken } from '../../../shared/auth/tokens.ts';
import { getDeps } from '../../../shared/deps.ts';
import { ADMIN_KEY, anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';

const INACTIVE_KEY = 'live_inactive-key';
const VET_KEY = 'live_vet-key';
const route = (auth: RouteDef['auth'], feature?: string): RouteDef => ({
  id: 'test',
  method: 'GET',
  path: '/x',
  entry: 'x',
  auth,
  access: {},
  status: 200,
  ...(feature && { feature }),
});
const tokenFor = async (accountId: string, ttl = 3600) =>
  (await issueToken(new TextEncoder().encode(process.env.TOKEN_SECRET!), accountId, new Date(), ttl)).access_token;

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string; message: string };
  }
  throw new Error('expected authentication to fail');
}

describe('authentication per route mode', () => {
  beforeEach(() => {
    mockDynamoWithAccounts([
      { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin' }) },
      { apiKey: USER_KEY, account: anAccount({ features: ['full_breed_schema'] }) },
      { apiKey: INACTIVE_KEY, account: anAccount({ id: 'acc-off', status: 'inactive' }) },
      { apiKey: VET_KEY, account: anAccount({ id: 'acc-vet', role: 'vet' }) },
    ]);
  });
  const deps = () => getDeps();

  it('lets anyone through a route without authentication', async () => {
    expect(await authenticate(deps(), route('none'), {})).toBeNull();
  });

  it('resolves an API key to its account', async () => {
    expect(await authenticate(deps(), route('apiKey'), { 'x-api-key': USER_KEY })).toMatchObject({ id: 'acc-user' });
  });

  it('answers 403 without a credential and names what to send', async () => {
    const error = await failure(authenticate(deps(), route('apiKey'), {}));
    expect(error).toMatchObject({ status: 403, code: 'missing_credentials' });
    expect(error.message).toContain('x-api-key');
  });

  it('answers 403 for an unknown API key', async () => {
    expect(await failure(authenticate(deps(), route('apiKey'), { 'x-api-key': 'live_nope' }))).toMatchObject({
      status: 403,
      code: 'invalid_api_key',
    });
  });

  it('answers 401 for the key of an inactive account', async () => {
    expect(await failure(authenticate(deps(), route('apiKey'), { 'x-api-key': INACTIVE_KEY }))).toMatchObject({
      status: 401,
      code: 'account_inactive',
    });
  });

  it('keeps admin routes to administrators', async () => {
    expect(await failure(authenticate(deps(), route('admin'), { 'x-api-key': USER_KEY }))).toMatchObject({
      status: 403,
      code: 'admin_only',
    });
    expect(await authenticate(deps(), route('admin'), { 'x-api-key': ADMIN_KEY })).toMatchObject({ role: 'admin' });
  });

  it('keeps vet routes to vets and administrators, by API key only', async () => {
    expect(await failure(authenticate(deps(), route('vet'), { 'x-api-key': USER_KEY }))).toMatchObject({
      status: 403,
      code: 'vet_only',
    });
    expect(await authenticate(deps(), route('vet'), { 'x-api-key': VET_KEY })).toMatchObject({ role: 'vet' });
    expect(await authenticate(deps(), route('vet'), { 'x-api-key': ADMIN_KEY })).toMatchObject({ role: 'admin' });
    const bearer = { authorization: `Bearer ${await tokenFor('acc-vet')}` };
    expect(await failure(authenticate(deps(), route('vet'), bearer))).toMatchObject({ code: 'missing_credentials' });
    expect(await failure(authenticate(deps(), route('admin'), { 'x-api-key': VET_KEY }))).toMatchObject({
      code: 'admin_only',
    });
  });

  it('answers 403 naming the feature an account lacks', async () => {
    const error = await failure(authenticate(deps(), route('apiKey', 'body_condition'), { 'x-api-key': USER_KEY }));
    expect(error).toMatchObject({ status: 403, code: 'feature_not_enabled' });
    expect(error.message).toContain('body_condition');
    expect(await authenticate(deps(), route('apiKey', 'full_breed_schema'), { 'x-api-key': USER_KEY })).toMatchObject({
      id: 'acc-user',
    });
  });

  it('accepts a valid bearer token on bearer routes and refuses an API key there', async () => {
    const token = await tokenFor('acc-user');
    expect(await authenticate(deps(), route('bearer'), { authorization: `Bearer ${token}` })).toMatchObject({
      id: 'acc-user',
    });
    expect(await failure(authenticate(deps(), route('bearer'), { 'x-api-key': USER_KEY }))).toMatchObject({
      status: 403,
      code: 'missing_credentials',
    });
  });

  it('answers 403 for an expired or forged bearer token', async () => {
    const expired = await tokenFor('acc-user', -10);
    expect(await failure(authenticate(deps(), route('bearer'), { authorization: `Bearer ${expired}` }))).toMatchObject({
      status: 403,
      code: 'invalid_token',
    });
    expect(await failure(authenticate(deps(), route('bearer'), { authorization: 'Bearer abc.def.ghi' }))).toMatchObject(
      { status: 403 },
    );
  });

  it('accepts either credential where the route allows both', async () => {
    const token = await tokenFor('acc-user');
    expect(await authenticate(deps(), route('apiKeyOrBearer'), { 'x-api-key': USER_KEY })).toMatchObject({
      id: 'acc-user',
    });
    expect(await authenticate(deps(), route('apiKeyOrBearer'), { authorization: `Bearer ${token}` })).toMatchObject({
      id: 'acc-user',
    });
  });

  it('answers 401 for a bearer token of an account that became inactive', async () => {
    const token = await tokenFor('acc-off');
    expect(await failure(authenticate(deps(), route('bearer'), { authorization: `Bearer ${token}` }))).toMatchObject({
      status: 401,
    });
  });

  describe('the credential cache', () => {
    const at = (iso: string) => ({ ...getDeps(), now: () => new Date(iso) });
    const bearerAt = (iso: string, token: string) =>
      authenticate(at(iso), route('bearer'), { authorization: `Bearer ${token}` });

    it('stores no credential that failed to verify: 5,000 junk tokens leave it empty', async () => {
      for (let i = 0; i < 5_000; i++) {
        await failure(authenticate(deps(), route('bearer'), { authorization: `Bearer junk.${i}.${'x'.repeat(64)}` }));
      }
      await failure(authenticate(deps(), route('apiKey'), { 'x-api-key': 'live_not-a-key' }));

      expect(authCacheSize()).toBe(0);
    }, 30_000);

    it(`keeps at most ${AUTH_CACHE_MAX_ENTRIES} verified credentials`, async () => {
      const first = await tokenFor('acc-user', 3600 + 1);
      await authenticate(deps(), route('bearer'), { authorization: `Bearer ${first}` });
      for (let i = 0; i < AUTH_CACHE_MAX_ENTRIES + 50; i++) {
        await authenticate(deps(), route('bearer'), {
          authorization: `Bearer ${await tokenFor('acc-user', 3600 + 2 + i)}`,
        });
      }

      expect(authCacheSize()).toBe(AUTH_CACHE_MAX_ENTRIES);
    }, 30_000);

    it('refuses a token the moment it expires, although it was used (and cached) a second before', async () => {
      const issuedAt = new Date('2026-11-22T10:00:00Z');
      const { access_token: token } = await issueToken(
        new TextEncoder().encode(process.env.TOKEN_SECRET!),
        'acc-user',
        issuedAt,
        60,
      );

      expect(await bearerAt('2026-11-22T10:00:59Z', token)).toMatchObject({ id: 'acc-user' });
      expect(await failure(bearerAt('2026-11-22T10:01:00Z', token))).toMatchObject({
        status: 403,
        code: 'invalid_token',
      });
    });

    it('refuses a correctly signed token that has no expiry', async () => {
      const forever = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('acc-user')
        .setIssuer('pet-api')
        .setIssuedAt()
        .sign(new TextEncoder().encode(process.env.TOKEN_SECRET!));

      expect(
        await failure(authenticate(deps(), route('bearer'), { authorization: `Bearer ${forever}` })),
      ).toMatchObject({
        status: 403,
        code: 'invalid_token',
      });
    });

    it('refuses an over-long Authorization header as an invalid token, without running a pattern over it', async () => {
      const header = `Bearer ${'x'.repeat(1024 * 1024)}`;
      expect(await failure(authenticate(deps(), route('bearer'), { authorization: header }))).toMatchObject({
        code: 'invalid_token',
      });
    });
  });
});
