import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountStatsKey, webhookKey } from '../../../shared/db/keys.ts';
import { handler } from '../../../functions/webhooks/delete-webhook.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes, RESTRICTED_KEY } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('DELETE /v1/webhooks/{id}', () => {
  const remove = (id: string, apiKey?: string) =>
    call(handler, { method: 'DELETE', path: `/v1/webhooks/${id}`, pathParameters: { id }, apiKey });

  // That the freed place can be taken again is DynamoDB's to show: tests/integration/webhooks.test.ts.
  it('deletes the endpoint and frees its place in the limit in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    expect(jsonBody(await remove('wh-1'))).toEqual({ message: 'SUCCESS', id: 'wh-1' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, webhookKey('acc-user', 'wh-1')).delete).toBe(true);
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ webhooks: { add: -1 } });
  });

  it('answers 404 when the endpoint does not exist', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(webhookKey('acc-user', 'wh-missing')));

    expect(jsonBody(await remove('wh-missing'))).toMatchObject({ statusCode: 404 });
  });

  it('answers 403 when the webhooks capability is switched off', async () => {
    expect(jsonBody(await remove('wh-1', RESTRICTED_KEY))).toMatchObject({
      statusCode: 403,
      code: 'capability_disabled',
    });
  });
});
