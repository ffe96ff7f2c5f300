import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/webhooks/redeliver-event.ts';
import { webhookEventAttemptsPartition, webhookEventKey } from '../../../shared/db/keys.ts';
import { jsonBody } from '../../support/http-event.ts';
import { CHARACTER_CLASSES } from '../../support/queue-characters.ts';
import { queueRefusingWhatQueuesRefuse } from '../../support/strict-queue.ts';
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

  const queuedEvent = () => JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!);
  const firstAttempt = (item: Record<string, unknown>) =>
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition('wh-1', 'evt_1') } })
      .resolves({ Items: [item] });

  it('queues the event the endpoint had before, from its first logged attempt, starting again at attempt 1', async () => {
    firstAttempt({ id: 'att-1', event: storedEvent });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toEqual({
      message: 'QUEUED',
      id: 'wh-1',
      event_id: 'evt_1',
      event_type: 'vote.created',
    });
    expect(queuedEvent()).toEqual({ webhook_id: 'wh-1', attempt: 1, event: storedEvent });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ Limit: 1 });
    expect(ddb.commandCalls(GetCommand, { Key: webhookEventKey('acc-user', 'evt_1') })).toHaveLength(0);
  });

  it('queues an event stored before the input rules, whatever characters it holds, the strings intact', async () => {
    queueRefusingWhatQueuesRefuse(sqs);
    const event = { ...storedEvent, resource: { id: 7, sub_id: Object.values(CHARACTER_CLASSES).join('|') } };
    firstAttempt({ id: 'att-1', event });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toMatchObject({ message: 'QUEUED', event_id: 'evt_1' });
    expect(queuedEvent()).toEqual({ webhook_id: 'wh-1', attempt: 1, event });
  });

  it('takes the event the dispatcher stored for an attempt logged before attempts carried their event', async () => {
    firstAttempt({ id: 'att-1' });
    ddb.on(GetCommand, { Key: webhookEventKey('acc-user', 'evt_1') }).resolves({ Item: storedEvent });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toMatchObject({ message: 'QUEUED', event_id: 'evt_1' });
    expect(queuedEvent()).toEqual({ webhook_id: 'wh-1', attempt: 1, event: storedEvent });
  });

  it('answers 404 when an attempt logged without its event has no stored event left either', async () => {
    firstAttempt({ id: 'att-1' });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toMatchObject({ statusCode: 404 });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
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
