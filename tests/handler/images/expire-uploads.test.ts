import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../events/images/expire-uploads.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts } from '../../support/fixtures.ts';

const ttlRemoval = (n: number, status = 'awaiting_upload', by: 'ttl' | 'user' = 'ttl'): DynamoDBRecord => ({
  eventName: 'REMOVE',
  ...(by === 'ttl' && { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } }),
  dynamodb: {
    SequenceNumber: String(100 + n),
    OldImage: marshall({
      pk: `IMAGE#img-${n}`,
      sk: 'IMAGE',
      type: 'Image',
      source: 'upload',
      id: `img-${n}`,
      account_id: 'acc-1',
      status,
      created_at: '2026-10-31T23:50:00.000Z',
    }) as never,
  },
});

describe('expiry of abandoned uploads', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([]);
    ddb.on(TransactWriteCommand).resolves({});
    setDepsForTest({ now: () => new Date('2026-11-01T01:00:00Z') });
  });

  it("gives back the quota of the upload's own month and the image count, with a tombstone, in one transaction", async () => {
    expect(await handler({ Records: [ttlRemoval(1)] })).toEqual({ batchItemFailures: [] });

    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toMatchObject([
      { Put: { Item: { pk: 'IMAGE#img-1', sk: 'EXPIRED' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Update: { Key: { pk: 'ACCOUNT#acc-1', sk: 'QUOTA#2026-10' }, ExpressionAttributeValues: { ':minusOne': -1 } } },
      { Update: { Key: { pk: 'ACCOUNT#acc-1', sk: 'STATS' }, ExpressionAttributeValues: { ':delta': -1 } } },
    ]);
  });

  it('ignores deletions by callers and removals of uploads whose object arrived', async () => {
    await handler({ Records: [ttlRemoval(1, 'awaiting_upload', 'user'), ttlRemoval(2, 'approved')] });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('gives nothing twice when the stream redelivers a removal', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );
    expect(await handler({ Records: [ttlRemoval(1)] })).toEqual({ batchItemFailures: [] });
  });

  it('reports the record when the table cannot be reached, so the stream retries it', async () => {
    ddb.on(TransactWriteCommand).rejects(new Error('network down'));
    expect(await handler({ Records: [ttlRemoval(1), ttlRemoval(2)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '101' }],
    });
  });
});
