import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/list-capabilities.ts';
import { callAccountRoute, mockAccountRoutes } from '../../support/account-routes.ts';
import { ADMIN_KEY, anAccount, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const capabilities = (apiKey: string) => callAccountRoute(handler, { path: '/v1/accounts/capabilities', apiKey });

describe('GET /v1/accounts/capabilities', () => {
  beforeEach(() => {
    mockAccountRoutes([
      { apiKey: USER_KEY, account: anAccount({ disabled_capabilities: ['portraits', 'webhooks'] }) },
      { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin' }) },
    ]);
  });

  it('answers the capabilities switched off for the caller, an empty array when none are', async () => {
    const result = await capabilities(USER_KEY);

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toEqual(['portraits', 'webhooks']);
    expect(jsonBody(await capabilities(ADMIN_KEY))).toEqual([]);
  });

  it('answers 403 missing_credentials without a key', async () => {
    const result = await callAccountRoute(handler, { path: '/v1/accounts/capabilities', apiKey: '' });

    expect(jsonBody(result)).toMatchObject({ statusCode: 403, code: 'missing_credentials' });
  });
});
