// The local stream runner follows the consumer table's retry settings as Lambda's event source does: a record that
// keeps failing is retried `retryAttempts` times, then described on the on-failure queue and passed over, so the
// records after it are still handled, each once; with a checkpoint it resumes where it stopped. Runs against the
// integration stack's DynamoDB Local and fauxqs, on a table of its own.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../scripts/local/stack.ts';
import { startStreamRunner } from '../../scripts/local/stream-runner.ts';
import { recordFilter } from '../../shared/events/stream-filters.ts';
import { scratchDirs } from '../support/scratch-dirs.ts';

const RETRY_ATTEMPTS = 2;
const env = inject('localEnv');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const dynamo = new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region: 'us-east-1', credentials });
const ddb = DynamoDBDocumentClient.from(dynamo);
const sqs = new SQSClient({ endpoint: env.AWS_ENDPOINT_URL_SQS, region: 'us-east-1', credentials });
const tableName = `stream-runner-${randomUUID().slice(0, 8)}`;
const scratch = scratchDirs('stream-checkpoints');

beforeAll(async () => {
  await ensureTable(dynamo, tableName);
});

afterAll(() => {
  dynamo.destroy();
  sqs.destroy();
});

const idOf = (record: DynamoDBRecord) => record.dynamodb!.NewImage!.pk!.S!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes items `<prefix>-<first>` … `<prefix>-<last>` in order, the `poison` ones marked. */
async function write(prefix: string, count: number, poison: number[], first = 1) {
  for (let n = first; n < first + count; n++)
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
  const runner = await startRunner(prefix, (event) => handler(event, handled), {
    accepts,
    queueUrl: QueueUrl!,
    attempts,
  });
  try {
    await write(prefix, 6, [3]);
    await waitFor(handled, expectHandled);
  } finally {
    await runner.stop();
  }
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
  );
  return { handled, attempts, failures: Messages.map((m) => JSON.parse(m.Body!)) };
}

/** A runner on the test table whose handler sees only the records of `prefix`. */
function startRunner(
  prefix: string,
  handler: (event: DynamoDBStreamEvent) => DynamoDBBatchResponse | Promise<DynamoDBBatchResponse>,
  options: {
    queueUrl?: string;
    accepts?: (record: DynamoDBRecord) => boolean;
    attempts?: Map<string, number>;
    checkpointFile?: string;
    retryAttempts?: number;
  } = {},
) {
  return startStreamRunner({
    consumerId: 'test.stream',
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB!,
    tableName,
    batchSize: 10,
    retryAttempts: options.retryAttempts ?? RETRY_ATTEMPTS,
    retryDelayMs: 50,
    pollMs: 20,
    onFailure: { sqs, queueUrl: options.queueUrl ?? 'http://127.0.0.1:1/unused' },
    accepts: options.accepts,
    ...(options.checkpointFile && { checkpointFile: options.checkpointFile }),
    handler: async (event) => {
      const mine = event.Records.filter((r) => idOf(r).startsWith(`${prefix}-`));
      for (const record of mine) options.attempts?.set(idOf(record), (options.attempts.get(idOf(record)) ?? 0) + 1);
      return handler({ Records: mine });
    },
  });
}

/** Until `count` records were handled (or 20 s passed), then a moment more: anything handled twice shows by then. */
async function waitFor(handled: string[], count: number) {
  const deadline = Date.now() + 20_000;
  while (handled.length < count && Date.now() < deadline) await sleep(50);
  await sleep(300);
}

/** Handles every record of the event in order. */
function handlingAll(handled: string[]) {
  return (event: DynamoDBStreamEvent): DynamoDBBatchResponse => {
    handled.push(...event.Records.map(idOf));
    return { batchItemFailures: [] };
  };
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

  describe('with a checkpoint file, as the persisted local service runs it', () => {
    it('resumes after the last record it processed: what was written while it was down is handled, nothing twice', async () => {
      const checkpointFile = join(scratch('resume'), 'consumer.json');
      const handled: string[] = [];
      const first = await startRunner('resumed', handlingAll(handled), { checkpointFile });
      await write('resumed', 3, []);
      await waitFor(handled, 3);
      await first.stop();
      await write('resumed', 3, [], 4);

      const second = await startRunner('resumed', handlingAll(handled), { checkpointFile });
      await waitFor(handled, 6);
      await second.stop();

      expect(handled).toEqual(['resumed-1', 'resumed-2', 'resumed-3', 'resumed-4', 'resumed-5', 'resumed-6']);
    });

    it('starts at the oldest record of the stream when nothing was saved yet, as TRIM_HORIZON', async () => {
      await write('oldest', 2, []);
      const handled: string[] = [];
      const runner = await startRunner('oldest', handlingAll(handled), {
        checkpointFile: join(scratch('oldest'), 'consumer.json'),
      });
      await waitFor(handled, 2);
      await runner.stop();

      expect(handled).toEqual(['oldest-1', 'oldest-2']);
    });

    it('saves a position only once the handler succeeded with it: a batch that kept failing is read again after a restart', async () => {
      const checkpointFile = join(scratch('failing'), 'consumer.json');
      const handled: string[] = [];
      let failures = 0;
      const failing = await startRunner(
        'failing',
        (event) => {
          if (event.Records.some((record) => record.dynamodb!.NewImage!.poison!.BOOL)) {
            failures++;
            throw new Error('not yet');
          }
          return handlingAll(handled)(event);
        },
        { checkpointFile, retryAttempts: 1000 },
      );
      await write('failing', 4, [3]);
      const deadline = Date.now() + 20_000;
      while (failures < 3 && Date.now() < deadline) await sleep(50);
      await failing.stop();
      const saved = JSON.parse(readFileSync(checkpointFile, 'utf8')) as { shards: Record<string, string> };

      const healthy = await startRunner('failing', handlingAll(handled), { checkpointFile });
      await waitFor(handled, 4);
      await healthy.stop();

      expect(failures).toBeGreaterThanOrEqual(3);
      expect(Object.values(saved.shards)).toHaveLength(1);
      expect(handled).toEqual(['failing-1', 'failing-2', 'failing-3', 'failing-4']);
    });

    it('reads a stream afresh when the checkpoint is of another stream (a table created again)', async () => {
      const checkpointFile = join(scratch('other-stream'), 'consumer.json');
      await write('recreated', 2, []);
      writeFileSync(
        checkpointFile,
        JSON.stringify({
          streamArn: 'arn:aws:dynamodb:ddblocal:0:table/gone/stream/x',
          shards: { 'shardId-gone': '000000000000000099999' },
        }),
      );
      const handled: string[] = [];
      const runner = await startRunner('recreated', handlingAll(handled), { checkpointFile });
      await waitFor(handled, 2);
      await runner.stop();

      expect(handled).toEqual(['recreated-1', 'recreated-2']);
    });
  });
});
