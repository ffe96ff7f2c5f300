import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/get-account-quota.ts';
import { callAccountRoute, mockAccountRoutes, serveAccountCounters } from '../../support/account-routes.ts';
import { USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const quotaOf = (accountId: string, apiKey?: string) =>
  callAccountRoute(handler, { path: `/v1/accounts/${accountId}/quota`, pathParameters: { accountId }, apiKey });

describe('GET /v1/accounts/{accountId}/quota', () => {
  beforeEach(() => {
    serveAccountCounters(mockAccountRoutes(), 'acc-user', { uploads: 12 });
  });

  it('answers an account’s quota, this month’s usage and when it resets, to an administrator', async () => {
    const result = await quotaOf('acc-user');

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toEqual({
      quota: 100,
      usage: 12,
      remaining: 88,
      period: '2026-11',
      resets_at: '2026-12-01T00:00:00.000Z',
    });
  });

  it('answers 404 for an account that does not exist and 403 admin_only to anyone else', async () => {
    expect(jsonBody(await quotaOf('acc-missing'))).toMatchObject({
      statusCode: 404,
      message: 'Account acc-missing does not exist',
    });
    expect(jsonBody(await quotaOf('acc-user', USER_KEY))).toMatchObject({ statusCode: 403, code: 'admin_only' });
  });
});
