import {
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../events/stream/route-events.ts';
import { queueRefusingWhatQueuesRefuse } from '../../support/strict-queue.ts';

const sqs = mockClient(SQSClient);
const voteRecord = (n: number, subId: string | null = null): DynamoDBRecord => ({
  eventID: `rec-${n}`,
  eventName: 'INSERT',
  dynamodb: {
    SequenceNumber: String(100 + n),
    ApproximateCreationDateTime: 1795348800,
    NewImage: marshall({
      type: 'Vote',
      id: n,
      account_id: 'acc-1',
      image_id: 'img',
      sub_id: subId,
      value: 1,
      country_code: null,
      created_at: '2026-11-22T10:00:00.000Z',
    }) as never,
  },
});

const sentBodies = () =>
  sqs.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => e.MessageBody!));
const recordsWithSubIds = (subIds: (string | null)[]) => subIds.map((subId, n) => voteRecord(n, subId));

describe('the event router', () => {
  beforeEach(() => {
    sqs.reset();
    process.env.EVENTS_QUEUE_URL = 'https://sqs.test/events';
    process.env.STREAM_DLQ_URL = 'https://sqs.test/stream-dlq';
  });

  it('publishes each record on its own, one message per event', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    const result = await handler({ Records: Array.from({ length: 12 }, (_, n) => voteRecord(n)) });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(12);
    const body = JSON.parse(sentBodies()[0]!);
    expect(body).toMatchObject({ type: 'vote.created', account_id: 'acc-1', resource: { id: 0 } });
  });

  it('reports the record that failed for a passing reason and sends nothing after it, so no neighbour is sent twice', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [] })
      .resolvesOnce({ Failed: [] })
      .resolves({ Failed: [{ Id: '0', SenderFault: false, Code: 'ServiceUnavailable' }] });

    const result = await handler({ Records: Array.from({ length: 12 }, (_, n) => voteRecord(n)) });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '102' }] });
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(3);
  });

  it("reports the batch's first record when SQS cannot be reached", async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('network down'));

    expect(await handler({ Records: [voteRecord(1), voteRecord(2)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '101' }],
    });
  });

  it('carries an emoji and U+FFFF in a sub_id: every event published exactly once, the value intact', async () => {
    queueRefusingWhatQueuesRefuse(sqs);
    const subIds = ['user-1', 'dog-lover-\u{1F436}', 'user-\uFFFF', 'lone-\uD800', null, 'user-6'];

    const result = await handler({ Records: recordsWithSubIds(subIds) });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
    const bodies = sentBodies();
    expect(bodies).toHaveLength(subIds.length);
    for (const body of bodies) expect(body).toMatch(/^[\x20-\x7e]*$/);
    expect(bodies.map((b) => JSON.parse(b).resource.sub_id)).toEqual(subIds);
  });

  it('parks an event SQS can never accept in the dead-letter queue, alarmed, and publishes the rest once each', async () => {
    sqs.on(SendMessageBatchCommand).callsFake(async (input: SendMessageBatchCommandInput) => ({
      Failed: input
        .Entries!.filter((e) => e.MessageBody!.includes('"id":3,'))
        .map((e) => ({
          Id: e.Id,
          SenderFault: true,
          Code: 'InvalidParameterValue',
          Message: 'One or more parameters are invalid',
        })),
    }));
    sqs.on(SendMessageCommand).resolves({});

    const result = await handler({ Records: Array.from({ length: 6 }, (_, n) => voteRecord(n)) });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(6);
    const parked = sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input);
    expect(parked).toHaveLength(1);
    expect(parked[0]!.QueueUrl).toBe('https://sqs.test/stream-dlq');
    const letter = JSON.parse(parked[0]!.MessageBody!);
    expect(letter).toMatchObject({
      sequence_number: '103',
      event_type: 'vote.created',
      reason: expect.stringContaining('InvalidParameterValue'),
    });
    expect(JSON.parse(Buffer.from(letter.payload_base64, 'base64').toString())).toMatchObject({ resource: { id: 3 } });
  });

  it('retries the record when the dead-letter queue cannot be reached either', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Failed: [{ Id: '0', SenderFault: true, Code: 'InvalidMessageContents' }] });
    sqs.on(SendMessageCommand).rejects(new Error('network down'));

    expect(await handler({ Records: [voteRecord(1), voteRecord(2)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '101' }],
    });
  });
});
