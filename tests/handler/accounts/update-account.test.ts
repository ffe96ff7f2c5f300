import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/update-account.ts';
import { accountKey } from '../../../shared/db/keys.ts';
import { callAccountRoute, mockAccountRoutes } from '../../support/account-routes.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { anAccount } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const patch = (accountId: string, body: unknown) =>
  callAccountRoute(handler, {
    method: 'PATCH',
    path: `/v1/accounts/${accountId}`,
    pathParameters: { accountId },
    body,
  });

describe('PATCH /v1/accounts/{accountId}', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes();
  });

  it('sets only the given fields, on an existing account, and returns the updated account', async () => {
    ddb.on(UpdateCommand).resolves({
      Attributes: { pk: 'ACCOUNT#acc-user', ...anAccount({ status: 'inactive', features: ['body_condition'] }) },
    });

    const result = await patch('acc-user', { status: 'inactive', features: ['body_condition', 'body_condition'] });

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toMatchObject({ id: 'acc-user', status: 'inactive', features: ['body_condition'] });
    // Only an account that exists (a refusal is the 404 below).
    expect(writeTo(ddb, accountKey('acc-user'))).toMatchObject({
      update: { status: 'inactive', features: ['body_condition'], updated_at: expect.any(String) },
      conditional: true,
    });
    expect(Object.keys(writeTo(ddb, accountKey('acc-user')).update!)).toEqual(['status', 'features', 'updated_at']);
  });

  it('answers 404 when the account does not exist', async () => {
    ddb.on(UpdateCommand).rejects(conditionalCheckFailed());

    const result = await patch('acc-missing', { name: 'X' });

    expect(jsonBody(result)).toMatchObject({ statusCode: 404, error: 'Not Found', path: '/v1/accounts/acc-missing' });
  });

  it('rejects an empty change set with 400', async () => {
    expect(jsonBody(await patch('acc-user', {}))).toMatchObject({
      statusCode: 400,
      message: ['body must change at least one field'],
    });
  });
});
