import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { webhookKey } from '../../../shared/db/keys.ts';
import { handler } from '../../../functions/webhooks/get-webhook.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes, NOW, storedWebhook } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('GET /v1/webhooks/{id}', () => {
  const get = (id: string) => call(handler, { path: `/v1/webhooks/${id}`, pathParameters: { id } });

  it('returns the endpoint, with when and why it was disabled', async () => {
    ddb.on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') }).resolves({
      Item: storedWebhook({
        status: 'disabled',
        disabled_at: NOW.toISOString(),
        disabled_reason: '10 delivery attempts failed in a row (last: HTTP 500)',
        consecutive_failures: 10,
      }),
    });

    expect(jsonBody(await get('wh-1'))).toMatchObject({
      id: 'wh-1',
      status: 'disabled',
      disabled_at: NOW.toISOString(),
      consecutive_failures: 10,
    });
  });

  it('answers 404 for an unknown id', async () => {
    expect(jsonBody(await get('wh-missing'))).toMatchObject({
      statusCode: 404,
      message: 'Webhook wh-missing does not exist',
    });
  });

  it("answers 404 for another account's endpoint, which is only ever looked up under the caller", async () => {
    ddb
      .on(GetCommand, { Key: webhookKey('acc-other', 'wh-2') })
      .resolves({ Item: storedWebhook({ ...webhookKey('acc-other', 'wh-2'), id: 'wh-2', account_id: 'acc-other' }) });

    expect(jsonBody(await get('wh-2'))).toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input.Key)).toContainEqual(webhookKey('acc-user', 'wh-2'));
  });
});
