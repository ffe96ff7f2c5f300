import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/webhooks/send-test-event.ts';
import { webhookKey } from '../../../shared/db/keys.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  call,
  DELIVERIES_QUEUE,
  mockWebhookRoutes,
  NEW_ID,
  NOW,
  sqs,
  storedWebhook,
} from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('POST /v1/webhooks/{id}/test', () => {
  const sendTest = (id: string) =>
    call(handler, { method: 'POST', path: `/v1/webhooks/${id}/test`, pathParameters: { id } });

  it('queues the first attempt of a webhook.test event, carrying the event, for this endpoint only', async () => {
    const body = jsonBody(await sendTest('wh-1'));

    const eventId = `evt_test_${NEW_ID}`;
    expect(body).toEqual({ message: 'QUEUED', id: 'wh-1', event_id: eventId, event_type: 'webhook.test' });
    // Nothing stored: the attempt log keeps the event for redelivery.
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    const [sent] = sqs.commandCalls(SendMessageCommand);
    expect(sent!.args[0].input).toMatchObject({ QueueUrl: DELIVERIES_QUEUE, DelaySeconds: 0 });
    expect(JSON.parse(sent!.args[0].input.MessageBody!)).toEqual({
      webhook_id: 'wh-1',
      attempt: 1,
      event: {
        id: eventId,
        event_type: 'webhook.test',
        account_id: 'acc-user',
        occurred_at: NOW.toISOString(),
        country_code: null,
        resource: { webhook_id: 'wh-1', message: 'This is a test event sent from the webhook API' },
      },
    });
  });

  it('answers 409 for a disabled endpoint, which receives nothing more', async () => {
    ddb
      .on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') })
      .resolves({ Item: storedWebhook({ status: 'disabled' }) });

    expect(jsonBody(await sendTest('wh-1'))).toMatchObject({ statusCode: 409, code: 'webhook_disabled' });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('answers 404 for an unknown endpoint', async () => {
    expect(jsonBody(await sendTest('wh-missing'))).toMatchObject({ statusCode: 404 });
  });
});
