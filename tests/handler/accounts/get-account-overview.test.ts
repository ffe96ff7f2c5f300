import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/get-account-overview.ts';
import { callAccountRoute, mockAccountRoutes, serveAccountCounters } from '../../support/account-routes.ts';
import { ADMIN_KEY, anAccount, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const overview = (accountId: string, apiKey?: string) =>
  callAccountRoute(handler, { path: `/v1/accounts/${accountId}/overview`, pathParameters: { accountId }, apiKey });

describe('GET /v1/accounts/{accountId}/overview', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes([
      { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin' }) },
      {
        apiKey: USER_KEY,
        account: anAccount({
          email: 'ops@acme.test',
          features: ['calculators'],
          disabled_capabilities: ['votes'],
          quota: 50,
        }),
      },
    ]);
    serveAccountCounters(ddb, 'acc-user', { uploads: 20, stats: { votes: 12, images: 3, webhooks: 2 } });
  });

  it('answers identity, flags, this month’s quota and the counts kept on the stats item (0 where none)', async () => {
    const result = await overview('acc-user');

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toEqual({
      account: {
        id: 'acc-user',
        name: 'Test user',
        email: 'ops@acme.test',
        role: 'user',
        status: 'active',
        created_at: '2026-11-01T00:00:00.000Z',
      },
      features: ['calculators'],
      disabled_capabilities: ['votes'],
      quota: { quota: 50, usage: 20, remaining: 30, period: '2026-11', resets_at: '2026-12-01T00:00:00.000Z' },
      counts: { votes: 12, favourites: 0, images: 3, pets: 0, webhooks: 2 },
    });
  });

  it('answers 404 for an account that does not exist and 403 admin_only to anyone else', async () => {
    expect(jsonBody(await overview('acc-missing'))).toMatchObject({
      statusCode: 404,
      message: 'Account acc-missing does not exist',
    });
    expect(jsonBody(await overview('acc-user', USER_KEY))).toMatchObject({ statusCode: 403, code: 'admin_only' });
  });
});
