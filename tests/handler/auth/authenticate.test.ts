import { beforeEach, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../shared/http/route-def.ts';
import { authenticate } from '../../../shared/auth/authenticate.ts';
import { issueToken } from '../../../shared/auth/tokens.ts';
import { getDeps } from '../../../shared/deps.ts';
import { ADMIN_KEY, anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';

const INACTIVE_KEY = 'live_inactive-key';
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
});
