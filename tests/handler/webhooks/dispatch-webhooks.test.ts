import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../shared/events/catalogue.ts';
import { handler } from '../../../events/webhooks/dispatch-webhooks.ts';
import { loadConfig } from '../../../shared/config.ts';
import { accountWebhooksPartition } from '../../../shared/db/keys.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { callbackLogger } from '../../../shared/log.ts';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';
import { CHARACTER_CLASSES } from '../../support/queue-characters.ts';
import { queueRefusingWhatQueuesRefuse } from '../../support/strict-queue.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const DELIVERIES_QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries';
const EVENTS_DLQ = 'https://sqs.us-east-1.amazonaws.com/000000000000/events-dlq';

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
/** The event as a delivery job carries it and the table stores it. */
const storedVote = (n: number) => {
  const { type, ...rest } = voteEvent(n);
  return { ...rest, event_type: type };
};
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
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  setDepsForTest({
    config: { ...loadConfig(), webhookDeliveriesQueueUrl: DELIVERIES_QUEUE, deadLetterQueueUrl: EVENTS_DLQ },
    now: () => NOW,
    log: callbackLogger((level, message, fields) => level === 'ERROR' && errors.push([message, fields])),
  });
});

describe('dispatching events to webhooks', () => {
  it('queues one first-attempt job per enabled endpoint subscribed to the event, found with one Query', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1'), endpoint('wh-2')] });

    expect(await handler(sqsEvent(JSON.stringify(voteEvent(1))))).toEqual({ batchItemFailures: [] });

    // Which endpoints the Query keeps (enabled, subscribed) is DynamoDB's to show:
    // tests/integration/webhook-subscriptions.test.ts.
    const [query] = ddb.commandCalls(QueryCommand);
    expect(Object.values(query!.args[0].input.ExpressionAttributeValues!)).toEqual(
      expect.arrayContaining([accountWebhooksPartition('acc-user'), 'vote.created']),
    );
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.QueueUrl).toBe(DELIVERIES_QUEUE);
    expect(queuedJobs()).toEqual([
      { webhook_id: 'wh-1', attempt: 1, event: storedVote(1) },
      { webhook_id: 'wh-2', attempt: 1, event: storedVote(1) },
    ]);
  });

  it('never sends an operational event to the endpoint it is about, even when that endpoint is subscribed', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-down'), endpoint('wh-watch')] });
    const exhausted = {
      id: 'evt_exhausted',
      type: 'webhook.attempts.exhausted',
      account_id: 'acc-user',
      occurred_at: '2026-11-22T09:59:58.000Z',
      country_code: null,
      resource: { webhook_id: 'wh-down', event_id: 'evt_1', event_type: 'vote.created', attempts: 3 },
    };

    expect(await handler(sqsEvent(JSON.stringify(exhausted), JSON.stringify(voteEvent(1))))).toEqual({
      batchItemFailures: [],
    });

    expect(queuedJobs().map((job) => [job.webhook_id, job.event.id])).toEqual([
      ['wh-watch', 'evt_exhausted'],
      ['wh-down', 'evt_1'],
      ['wh-watch', 'evt_1'],
    ]);
  });

  it('stores nothing itself: the jobs carry the event, and the attempt log keeps it for redelivery', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1'), endpoint('wh-2')] });

    await handler(sqsEvent(JSON.stringify(voteEvent(1))));

    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    expect(queuedJobs().map((job) => job.event)).toEqual([storedVote(1), storedVote(1)]);
  });

  it('shares one Query per account and event name and the queueing of all jobs across a batch', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1'), endpoint('wh-2')] });

    const events = [1, 2, 3, 4, 5, 6].map((n) => voteEvent(n, n <= 4 ? 'acc-a' : 'acc-b'));
    expect(await handler(sqsEvent(...events.map((e) => JSON.stringify(e))))).toEqual({ batchItemFailures: [] });

    expect(ddb.commandCalls(QueryCommand).map((c) => c.args[0].input.ExpressionAttributeValues![':pk'])).toEqual([
      'ACCOUNT#acc-a#WEBHOOKS',
      'ACCOUNT#acc-b#WEBHOOKS',
    ]);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.length)).toEqual([10, 2]);
  });

  it('queues nothing for an event nobody subscribed to', async () => {
    expect(await handler(sqsEvent(JSON.stringify(voteEvent(1))))).toEqual({ batchItemFailures: [] });

    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('reports the event whose job was not queued, and only that one', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-a#WEBHOOKS' } })
      .resolves({ Items: [endpoint('wh-a', 'acc-a')] });
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-b#WEBHOOKS' } })
      .resolves({ Items: [endpoint('wh-b', 'acc-b')] });
    sqs.on(SendMessageBatchCommand).callsFake((input) => ({
      Failed: input.Entries.flatMap((entry: { Id: string; MessageBody: string }) =>
        entry.MessageBody.includes('acc-b') ? [{ Id: entry.Id, Code: 'InternalError', SenderFault: false }] : [],
      ),
    }));

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
    expect(queuedJobs()).toEqual([{ webhook_id: 'wh-1', attempt: 1, event: storedVote(2) }]);
  });

  it('queues the jobs of events whose strings hold any character, the strings intact', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1')] });
    queueRefusingWhatQueuesRefuse(sqs);
    const subIds = Object.values(CHARACTER_CLASSES);
    const events = subIds.map((sub_id, n) => {
      const event = voteEvent(n);
      return { ...event, resource: { ...event.resource, sub_id } };
    });

    const result = await handler(sqsEvent(...events.map((e) => JSON.stringify(e))));

    expect(result).toEqual({ batchItemFailures: [] });
    expect(queuedJobs().map((job) => job.event.resource.sub_id)).toEqual(subIds);
  });

  it('sends an event whose jobs SQS refuses for good to the dead-letter queue at once, with the reason', async () => {
    ddb.on(QueryCommand).resolves({ Items: [endpoint('wh-1'), endpoint('wh-2')] });
    sqs.on(SendMessageBatchCommand).callsFake((input) => ({
      Failed: input.Entries.map((entry: { Id: string }) => ({
        Id: entry.Id,
        SenderFault: true,
        Code: 'InvalidMessageContents',
        Message: 'Invalid characters found.',
      })),
    }));
    sqs.on(SendMessageCommand).resolves({ MessageId: 'dead-1' });

    const result = await handler(sqsEvent(JSON.stringify(voteEvent(1)), JSON.stringify(voteEvent(2))));

    expect(result).toEqual({ batchItemFailures: [] });
    const parked = sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input);
    expect(parked.map((letter) => [letter.QueueUrl, JSON.parse(letter.MessageBody!)])).toEqual([
      [EVENTS_DLQ, voteEvent(1)],
      [EVENTS_DLQ, voteEvent(2)],
    ]);
    expect(parked[0]!.MessageAttributes).toMatchObject({
      consumer: { StringValue: 'webhooks.dispatch' },
      refused_code: { StringValue: 'InvalidMessageContents' },
      refused_reason: { StringValue: 'Invalid characters found.' },
    });
    expect(errors).toContainEqual([
      expect.stringContaining('dead-lettered'),
      expect.objectContaining({
        messageId: 'msg-1',
        code: 'InvalidMessageContents',
        reason: 'Invalid characters found.',
      }),
    ]);
  });
});
