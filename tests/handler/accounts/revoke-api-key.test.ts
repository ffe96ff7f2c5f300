import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/revoke-api-key.ts';
import { hashApiKey } from '../../../shared/auth/api-keys.ts';
import { apiKeyKey } from '../../../shared/db/keys.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { callAccountRoute, mockAccountRoutes, NOW } from '../../support/account-routes.ts';
import { USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const revoke = (accountId: string, apiKey?: string) =>
  callAccountRoute(handler, {
    method: 'POST',
    path: `/v1/accounts/${accountId}/api-key/revoke`,
    pathParameters: { accountId },
    apiKey,
  });

describe('POST /v1/accounts/{accountId}/api-key/revoke', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes();
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('ends the account’s key now and answers the one new key', async () => {
    const result = await revoke('acc-user');

    expect(result).toMatchObject({ statusCode: 200 });
    const body = jsonBody(result);
    expect(body).toEqual({
      id: 'acc-user',
      api_key: expect.stringMatching(/^live_/),
      revoked_at: NOW.toISOString(),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // The old key ends now, and the new one is stored only as its hash.
    expect(writeTo(ddb, apiKeyKey(hashApiKey(USER_KEY))).update).toMatchObject({ expires_at: NOW.toISOString() });
    expect(writeTo(ddb, apiKeyKey(hashApiKey(body.api_key))).put).toMatchObject({ accountId: 'acc-user' });
  });

  it('answers 404 for an account that does not exist and 403 admin_only to anyone else, writing nothing', async () => {
    expect(jsonBody(await revoke('acc-missing'))).toMatchObject({ statusCode: 404 });
    expect(jsonBody(await revoke('acc-user', USER_KEY))).toMatchObject({ statusCode: 403, code: 'admin_only' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
