import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/webhooks/redeliver-event.ts';
import { webhookEventAttemptsPartition, webhookEventKey } from '../../../shared/db/keys.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes, NOW, sqs } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('POST /v1/webhooks/{id}/deliveries/{eventId}/redeliver', () => {
  const redeliver = (id: string, eventId: string) =>
    call(handler, {
      method: 'POST',
      path: `/v1/webhooks/${id}/deliveries/${eventId}/redeliver`,
      pathParameters: { id, eventId },
    });
  const storedEvent = {
    id: 'evt_1',
    event_type: 'vote.created',
    account_id: 'acc-user',
    occurred_at: NOW.toISOString(),
    country_code: 'GB',
    resource: { id: 7 },
  };

  beforeEach(() => {
    ddb.on(GetCommand, { Key: webhookEventKey('acc-user', 'evt_1') }).resolves({ Item: storedEvent });
  });

  it('queues an event the endpoint had before, starting again at attempt 1', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition('wh-1', 'evt_1') } })
      .resolves({ Items: [{ id: 'att-1' }] });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toEqual({
      message: 'QUEUED',
      id: 'wh-1',
      event_id: 'evt_1',
      event_type: 'vote.created',
    });
    const [sent] = sqs.commandCalls(SendMessageCommand);
    expect(JSON.parse(sent!.args[0].input.MessageBody!)).toMatchObject({
      webhook_id: 'wh-1',
      attempt: 1,
      event: { id: 'evt_1', event_type: 'vote.created', account_id: 'acc-user' },
    });
  });

  it('answers 404 when the endpoint never had that event', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toMatchObject({ statusCode: 404 });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('answers 404 for an unknown endpoint', async () => {
    expect(jsonBody(await redeliver('wh-missing', 'evt_1'))).toMatchObject({ statusCode: 404 });
  });
});
