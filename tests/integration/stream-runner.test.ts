// The local stream runner follows the consumer table's retry settings as Lambda's event source does: a record that
// keeps failing is retried `retryAttempts` times, then described on the on-failure queue and passed over, so the
// records after it are still handled, each once. Runs against the integration stack's DynamoDB Local and fauxqs,
// on a table of its own.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../scripts/local/stack.ts';
import { startStreamRunner } from '../../scripts/local/stream-runner.ts';
import { recordFilter } from '../../shared/events/stream-filters.ts';

const RETRY_ATTEMPTS = 2;
const env = inject('localEnv');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const dynamo = new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region: 'us-east-1', credentials });
const ddb = DynamoDBDocumentClient.from(dynamo);
const sqs = new SQSClient({ endpoint: env.AWS_ENDPOINT_URL_SQS, region: 'us-east-1', credentials });
const tableName = `stream-runner-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  await ensureTable(dynamo, tableName);
});

afterAll(() => {
  dynamo.destroy();
  sqs.destroy();
});

const idOf = (record: DynamoDBRecord) => record.dynamodb!.NewImage!.pk!.S!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes items `<prefix>-1` … `<prefix>-n` in order, the `poison` ones marked. */
async function write(prefix: string, count: number, poison: number[]) {
  for (let n = 1; n <= count; n++)
    await ddb.send(
      new PutCommand({ TableName: tableName, Item: { pk: `${prefix}-${n}`, sk: 'ITEM', poison: poison.includes(n) } }),
    );
}

async function run(
  prefix: string,
  handler: (event: DynamoDBStreamEvent, handled: string[]) => DynamoDBBatchResponse,
  expectHandled: number,
  accepts?: (record: DynamoDBRecord) => boolean,
) {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `${tableName}-${prefix}-failures` }));
  const handled: string[] = [];
  const attempts = new Map<string, number>();
  const runner = await startStreamRunner({
    consumerId: 'test.stream',
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB!,
    tableName,
    batchSize: 10,
    retryAttempts: RETRY_ATTEMPTS,
    retryDelayMs: 50,
    pollMs: 20,
    onFailure: { sqs, queueUrl: QueueUrl! },
    accepts,
    handler: async (event) => {
      const mine = event.Records.filter((r) => idOf(r).startsWith(`${prefix}-`));
      for (const record of mine) attempts.set(idOf(record), (attempts.get(idOf(record)) ?? 0) + 1);
      return handler({ Records: mine }, handled);
    },
  });
  try {
    await write(prefix, 6, [3]);
    const deadline = Date.now() + 20_000;
    while (handled.length < expectHandled && Date.now() < deadline) await sleep(50);
    await sleep(300); // anything handled twice would show now
  } finally {
    await runner.stop();
  }
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
  );
  return { handled, attempts, failures: Messages.map((m) => JSON.parse(m.Body!)) };
}

/** Handles in order and reports the first poison record as failed, as the event router does. */
function reportingFirstFailure(event: DynamoDBStreamEvent, handled: string[]): DynamoDBBatchResponse {
  for (const record of event.Records) {
    if (record.dynamodb!.NewImage!.poison!.BOOL)
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    handled.push(idOf(record));
  }
  return { batchItemFailures: [] };
}

describe('the local stream runner', () => {
  it('retries a record that keeps failing retryAttempts times, then describes it on the failure queue and goes on', async () => {
    const { handled, attempts, failures } = await run('reported', reportingFirstFailure, 5);

    expect(handled).toEqual(['reported-1', 'reported-2', 'reported-4', 'reported-5', 'reported-6']);
    expect(attempts.get('reported-3')).toBe(RETRY_ATTEMPTS + 1);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: RETRY_ATTEMPTS + 1 },
      DDBStreamBatchInfo: { batchSize: 1, streamArn: expect.stringContaining(tableName) },
    });
  });

  it('hands the handler only the records its filter accepts, as filter criteria on the event source do', async () => {
    const { handled, attempts, failures } = await run(
      'filtered',
      reportingFirstFailure,
      5,
      recordFilter([{ dynamodb: { NewImage: { poison: { BOOL: [false] } } } }]),
    );

    expect(handled).toEqual(['filtered-1', 'filtered-2', 'filtered-4', 'filtered-5', 'filtered-6']);
    expect(attempts.has('filtered-3')).toBe(false);
    expect(failures).toEqual([]);
  });

  it('halves a batch whose handler crashes until the bad record is alone, so its neighbours are handled once each', async () => {
    const { handled, failures } = await run(
      'crashing',
      (event, handled) => {
        if (event.Records.some((record) => record.dynamodb!.NewImage!.poison!.BOOL)) throw new Error('boom');
        handled.push(...event.Records.map(idOf));
        return { batchItemFailures: [] };
      },
      5,
    );

    expect([...handled].sort()).toEqual(['crashing-1', 'crashing-2', 'crashing-4', 'crashing-5', 'crashing-6']);
    expect(failures).toHaveLength(1);
    expect(failures[0].DDBStreamBatchInfo.startSequenceNumber).toBe(failures[0].DDBStreamBatchInfo.endSequenceNumber);
  });
});
