import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../shared/events/catalogue.ts';
import { handler } from '../../../events/webhooks/dispatch-webhooks.ts';
import { loadConfig } from '../../../shared/config.ts';
import { webhookEventKey } from '../../../shared/db/keys.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const DELIVERIES_QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries';

const voteEvent = (n: number, accountId = 'acc-user'): DomainEvent<'vote.created'> => ({
  id: `evt_${n}`,
  type: 'vote.created',
  account_id: accountId,
  occurred_at: '2026-11-22T09:59:58.000Z',
  country_code: null,
  resource: {
    id: n,
    image_id: 'img-1',
    sub_id: null,
    value: 1,
    country_code: null,
    created_at: '2026-11-22T09:59:58.000Z',
  },
});
const endpoint = (id: string, accountId = 'acc-user') => aStoredWebhook({ id, account_id: accountId });
const sqsEvent = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, n) => ({ messageId: `msg-${n + 1}`, body })) }) as unknown as SQSEvent;

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const queuedJobs = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .flatMap((c) => c.args[0].input.Entries!.map((e) => JSON.parse(e.MessageBody!)));

let errors: unknown[][];

beforeEach(() => {
  errors = [];
  ddb.reset();
  sqs.reset();
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(PutCommand).resolves({});
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  setDepsForTest({
    config: { ...loadConfig(), webhookDeliveriesQueueUrl: DELIVERIES_QUEUE },
    now: () => NOW,
    log: { info: () => {}, error: (...entry) => errors.push(entry) },
  });
});

describe('dispatching events to webhooks', () => {
  it('queues one first-attempt job per enabled endpoint subscribed to the event, found with one Query', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1'), endpoint('wh-2')] });

    expect(await handler(sqsEvent(JSON.stringify(voteEvent(1))))).toEqual({ batchItemFailures: [] });

    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: '#status = :enabled AND contains(enabled_events, :type)',
      ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-user#WEBHOOKS', ':enabled': 'enabled', ':type': 'vote.created' },
    });
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.QueueUrl).toBe(DELIVERIES_QUEUE);
    expect(queuedJobs()).toEqual([
      { event_id: 'evt_1', webhook_id: 'wh-1', account_id: 'acc-user', attempt: 1 },
      { event_id: 'evt_1', webhook_id: 'wh-2', account_id: 'acc-user', attempt: 1 },
    ]);
  });

  it('stores the event once, for 30 days, so retries and redeliveries can rebuild the body', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1'), endpoint('wh-2')] });

    await handler(sqsEvent(JSON.stringify(voteEvent(1))));

    const puts = ddb.commandCalls(PutCommand);
    expect(puts).toHaveLength(1);
    expect(puts[0]!.args[0].input.Item).toEqual({
      ...webhookEventKey('acc-user', 'evt_1'),
      type: 'WebhookEvent',
      id: 'evt_1',
      event_type: 'vote.created',
      account_id: 'acc-user',
      occurred_at: '2026-11-22T09:59:58.000Z',
      country_code: null,
      resource: voteEvent(1).resource,
      expiresAt: NOW.getTime() / 1000 + 30 * 24 * 60 * 60,
    });
  });

  it('neither stores nor queues anything for an event nobody subscribed to', async () => {
    expect(await handler(sqsEvent(JSON.stringify(voteEvent(1))))).toEqual({ batchItemFailures: [] });

    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it("queues each event's jobs (at most five endpoints) in one batch", async () => {
    ddb.on(QueryCommand).resolves({ Items: ['wh-1', 'wh-2', 'wh-3', 'wh-4', 'wh-5'].map((id) => endpoint(id)) });

    await handler(sqsEvent(...[1, 2, 3].map((n) => JSON.stringify(voteEvent(n)))));

    expect(sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.length)).toEqual([5, 5, 5]);
    expect(queuedJobs()).toHaveLength(15);
  });

  it('reports the event whose job was not queued, and only that one', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-a#WEBHOOKS' } })
      .resolves({ Items: [endpoint('wh-a', 'acc-a')] });
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-b#WEBHOOKS' } })
      .resolves({ Items: [endpoint('wh-b', 'acc-b')] });
    sqs
      .on(SendMessageBatchCommand)
      .callsFake((input) =>
        input.Entries[0].MessageBody.includes('acc-b')
          ? { Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] }
          : { Failed: [] },
      );

    const result = await handler(
      sqsEvent(JSON.stringify(voteEvent(1, 'acc-a')), JSON.stringify(voteEvent(2, 'acc-b'))),
    );

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-2' }] });
  });

  it('reports every event of a batch that SQS refused outright', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1')] });
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS unavailable'));

    const result = await handler(sqsEvent(JSON.stringify(voteEvent(1)), JSON.stringify(voteEvent(2))));

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }, { itemIdentifier: 'msg-2' }] });
  });

  it('drops a malformed message as a permanent failure, logged for the alarm, and still dispatches the rest', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1')] });

    const result = await handler(sqsEvent('not json', JSON.stringify(voteEvent(2))));

    expect(result).toEqual({ batchItemFailures: [] });
    expect(errors).toContainEqual([
      expect.stringContaining('PermanentFailure'),
      expect.objectContaining({ consumer: 'webhooks.dispatch', messageId: 'msg-1' }),
    ]);
    expect(queuedJobs()).toEqual([{ event_id: 'evt_2', webhook_id: 'wh-1', account_id: 'acc-user', attempt: 1 }]);
  });
});
