import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../events/stream/route-events.ts';

const sqs = mockClient(SQSClient);
const voteRecord = (n: number): DynamoDBRecord => ({
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
      sub_id: null,
      value: 1,
      country_code: null,
      created_at: '2026-11-22T10:00:00.000Z',
    }) as never,
  },
});

describe('the event router', () => {
  beforeEach(() => {
    sqs.reset();
    process.env.EVENTS_QUEUE_URL = 'https://sqs.test/events';
  });

  it('publishes one message per event in batches of ten', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    const result = await handler({ Records: Array.from({ length: 12 }, (_, n) => voteRecord(n)) });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.length)).toEqual([10, 2]);
    const body = JSON.parse(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries![0]!.MessageBody!);
    expect(body).toMatchObject({ type: 'vote.created', account_id: 'acc-1', resource: { id: 0 } });
  });

  it('reports the first record whose event was not published, so the stream retries from there', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [] })
      .resolves({ Failed: [{ Id: '1', SenderFault: false, Code: 'x' }] });

    const result = await handler({ Records: Array.from({ length: 12 }, (_, n) => voteRecord(n)) });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '111' }] });
  });

  it("reports the batch's first record when SQS cannot be reached", async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('network down'));

    expect(await handler({ Records: [voteRecord(1), voteRecord(2)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '101' }],
    });
  });
});
