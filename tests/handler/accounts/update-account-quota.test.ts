import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/update-account-quota.ts';
import { accountKey } from '../../../shared/db/keys.ts';
import { callAccountRoute, mockAccountRoutes, NOW, serveAccountCounters } from '../../support/account-routes.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { anAccount, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const setQuota = (accountId: string, body: unknown, apiKey?: string) =>
  callAccountRoute(handler, {
    method: 'PATCH',
    path: `/v1/accounts/${accountId}/quota`,
    pathParameters: { accountId },
    body,
    apiKey,
  });

describe('PATCH /v1/accounts/{accountId}/quota', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes();
    serveAccountCounters(ddb, 'acc-user', { uploads: 25 });
    ddb
      .on(UpdateCommand, { TableName: 'test-table' })
      .resolves({ Attributes: { pk: 'ACCOUNT#acc-user', sk: 'ACCOUNT', ...anAccount({ quota: 40 }) } });
  });

  it('sets the quota on the existing account only and answers the quota with this month’s usage', async () => {
    const result = await setQuota('acc-user', { quota: 40 });

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toMatchObject({ quota: 40, usage: 25, remaining: 15, period: '2026-11' });
    // Only an account that exists (a refusal is a 404).
    expect(writeTo(ddb, accountKey('acc-user'))).toMatchObject({
      update: { quota: 40, updated_at: NOW.toISOString() },
      conditional: true,
    });
  });

  it('answers 400 for a quota that is not a whole number from 0 to 1,000,000, or any other field', async () => {
    const negative = await setQuota('acc-user', { quota: -1 });
    const fraction = await setQuota('acc-user', { quota: 2.5 });
    const extra = await setQuota('acc-user', { quota: 10, plan: 'pro' });

    for (const result of [negative, fraction, extra]) expect(result).toMatchObject({ statusCode: 400 });
    expect(jsonBody(extra).message).toEqual(["unknown field 'plan'"]);
    expect(ddb.commandCalls(UpdateCommand, { TableName: 'test-table' })).toHaveLength(0);
  });

  it('answers 404 for an account that does not exist and 403 admin_only to anyone else', async () => {
    ddb.on(UpdateCommand, { TableName: 'test-table' }).rejects(conditionalCheckFailed());

    expect(jsonBody(await setQuota('acc-missing', { quota: 5 }))).toMatchObject({ statusCode: 404 });
    expect(jsonBody(await setQuota('acc-user', { quota: 5 }, USER_KEY))).toMatchObject({
      statusCode: 403,
      code: 'admin_only',
    });
  });
});
