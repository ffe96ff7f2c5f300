import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { webhookKey } from '../../../shared/db/keys.ts';
import { handler } from '../../../functions/webhooks/delete-webhook.ts';
import { conditionFailedAt } from '../../support/dynamo-errors.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes, RESTRICTED_KEY } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('DELETE /v1/webhooks/{id}', () => {
  const remove = (id: string, apiKey?: string) =>
    call(handler, { method: 'DELETE', path: `/v1/webhooks/${id}`, pathParameters: { id }, apiKey });

  it('deletes the endpoint and frees its place in the limit in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    expect(jsonBody(await remove('wh-1'))).toEqual({ message: 'SUCCESS', id: 'wh-1' });
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Delete).toMatchObject({
      Key: webhookKey('acc-user', 'wh-1'),
      ConditionExpression: 'attribute_exists(pk)',
    });
    expect(items[1]!.Update).toMatchObject({
      UpdateExpression: 'ADD #stat :delta',
      ExpressionAttributeNames: { '#stat': 'webhooks' },
      ExpressionAttributeValues: { ':delta': -1 },
    });
  });

  it('answers 404 when the endpoint does not exist', async () => {
    ddb.on(TransactWriteCommand).rejects(conditionFailedAt(0, 2));

    expect(jsonBody(await remove('wh-missing'))).toMatchObject({ statusCode: 404 });
  });

  it('answers 403 when the webhooks capability is switched off', async () => {
    expect(jsonBody(await remove('wh-1', RESTRICTED_KEY))).toMatchObject({
      statusCode: 403,
      code: 'capability_disabled',
    });
  });
});
