import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/update-account.ts';
import { callAccountRoute, mockAccountRoutes } from '../../support/account-routes.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
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
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(pk)');
    expect(Object.values(input.ExpressionAttributeNames!)).toEqual(['status', 'features', 'updated_at']);
    expect(input.ExpressionAttributeValues).toMatchObject({ ':v1': ['body_condition'] });
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
