import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/list-features.ts';
import { callAccountRoute, mockAccountRoutes } from '../../support/account-routes.ts';
import { ADMIN_KEY, anAccount, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const features = (apiKey: string) => callAccountRoute(handler, { path: '/v1/accounts/features', apiKey });

describe('GET /v1/accounts/features', () => {
  beforeEach(() => {
    mockAccountRoutes([
      { apiKey: USER_KEY, account: anAccount({ features: ['body_condition', 'calculators'] }) },
      { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin' }) },
    ]);
  });

  it('answers the caller’s own feature flags, an empty array when it has none', async () => {
    const result = await features(USER_KEY);

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toEqual(['body_condition', 'calculators']);
    expect(jsonBody(await features(ADMIN_KEY))).toEqual([]);
  });

  it('answers 403 invalid_api_key for a key no account holds', async () => {
    const result = await features('live_unknown-key');

    expect(jsonBody(result)).toMatchObject({ statusCode: 403, code: 'invalid_api_key' });
  });
});
