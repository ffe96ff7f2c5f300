import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/update-account.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { ADMIN_KEY, anAccount, mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';

const patch = (accountId: string, body: unknown) =>
  handler(
    httpEvent({
      method: 'PATCH',
      path: `/v1/accounts/${accountId}`,
      pathParameters: { accountId },
      headers: { 'x-api-key': ADMIN_KEY },
      body,
    }),
    lambdaContext,
  );

describe('PATCH /v1/accounts/{accountId}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    setDepsForTest({ now: () => new Date('2026-11-22T10:00:00.000Z') });
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
