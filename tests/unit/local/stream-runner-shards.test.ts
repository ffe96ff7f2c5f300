// The stream runner's resumption over shards DynamoDB Local only makes after hours (it rolls a shard over every 4 h
// and trims records after 24 h): a closed parent shard and its child, and a checkpoint older than the retention. A
// small server answers the DynamoDB and DynamoDB Streams calls the runner makes in the services' wire format, so the
// runner and the real SDK clients run unchanged against streams of any shape.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SHARD_FINISHED } from '../../../scripts/local/stream-checkpoints.ts';
import { startStreamRunner } from '../../../scripts/local/stream-runner.ts';

const STREAM_ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/shards/stream/2026-11-28T00:00:00.000';

interface FakeShard {
  id: string;
  parent?: string;
  /** Sequence numbers of its records, in order (21 digits, as DynamoDB's). */
  records: string[];
  /** Read to its end, it ends: the iterator after its last record is null. */
  closed: boolean;
  /** Records before this index were trimmed by retention. */
  trimmed?: number;
}

const seq = (n: number) => String(n).padStart(21, '0');
let shards: FakeShard[] = [];
let server: Server;
let endpoint: string;
let dir: string;

function answer(target: string, input: Record<string, string>): [number, unknown] {
  const shard = (id: string) => shards.find((s) => s.id === id);
  switch (target) {
    case 'DynamoDB_20120810.DescribeTable':
      return [200, { Table: { TableName: 'shards', LatestStreamArn: STREAM_ARN } }];
    case 'DynamoDBStreams_20120810.DescribeStream':
      return [
        200,
        {
          StreamDescription: {
            StreamArn: STREAM_ARN,
            StreamStatus: 'ENABLED',
            Shards: shards.map((s) => ({
              ShardId: s.id,
              ...(s.parent && { ParentShardId: s.parent }),
              SequenceNumberRange: {
                StartingSequenceNumber: s.records[0],
                ...(s.closed && { EndingSequenceNumber: s.records.at(-1) }),
              },
            })),
          },
        },
      ];
    case 'DynamoDBStreams_20120810.GetShardIterator': {
      const found = shard(input.ShardId!);
      if (!found) return [400, { __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException' }];
      const trimmed = found.trimmed ?? 0;
      const type = input.ShardIteratorType ?? '';
      const at = found.records.indexOf(input.SequenceNumber ?? '');
      if (type.endsWith('SEQUENCE_NUMBER') && at < trimmed)
        return [400, { __type: 'com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException', message: 'trimmed' }];
      const index =
        type === 'TRIM_HORIZON'
          ? trimmed
          : type === 'LATEST'
            ? found.records.length
            : type === 'AT_SEQUENCE_NUMBER'
              ? at
              : at + 1;
      return [200, { ShardIterator: `${found.id}/${index}` }];
    }
    case 'DynamoDBStreams_20120810.GetRecords': {
      const [id, index] = input.ShardIterator!.split('/');
      const found = shard(id!)!;
      const from = Number(index);
      const records = found.records.slice(from).map((sequenceNumber) => ({
        eventID: sequenceNumber,
        eventName: 'INSERT',
        dynamodb: {
          Keys: { pk: { S: sequenceNumber } },
          NewImage: { pk: { S: sequenceNumber } },
          SequenceNumber: sequenceNumber,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      }));
      const end = found.records.length;
      return [200, { Records: records, ...(!found.closed && { NextShardIterator: `${found.id}/${end}` }) }];
    }
    default:
      return [400, { __type: 'com.amazon.coral.service#UnknownOperationException' }];
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const [status, json] = answer(String(request.headers['x-amz-target']), JSON.parse(body || '{}'));
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the runner on the fake stream until `count` records were handled (or 5 s passed); what it handled, in order. */
async function run(count: number, checkpoint?: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), 'pet-api-stream-shards-'));
  const checkpointFile = join(dir, 'consumer.json');
  if (checkpoint) writeFileSync(checkpointFile, JSON.stringify({ streamArn: STREAM_ARN, shards: checkpoint }));
  const handled: string[] = [];
  const logged: string[] = [];
  const runner = await startStreamRunner({
    consumerId: 'test.shards',
    endpoint,
    tableName: 'shards',
    batchSize: 10,
    retryAttempts: 0,
    pollMs: 5,
    onFailure: { sqs: undefined as never, queueUrl: 'unused' },
    checkpointFile,
    log: (message) => logged.push(message),
    handler: async (event) => {
      handled.push(...event.Records.map((record: DynamoDBRecord) => record.dynamodb!.SequenceNumber!));
      return { batchItemFailures: [] };
    },
  });
  const deadline = Date.now() + 5000;
  while (handled.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 100)); // anything handled twice shows by now
  await runner.stop();
  const saved = JSON.parse(readFileSync(checkpointFile, 'utf8')) as { shards: Record<string, string> };
  return { handled, logged, saved: saved.shards };
}

describe('the stream runner over closed and trimmed shards', () => {
  it("reads a closed parent shard to its end before its child's records, and saves the parent as finished", async () => {
    // The stream lists the child first: the order of the description is not the order of the records.
    shards = [
      { id: 'shard-child', parent: 'shard-parent', records: [seq(4), seq(5)], closed: false },
      { id: 'shard-parent', records: [seq(1), seq(2), seq(3)], closed: true },
    ];

    const { handled, saved } = await run(5);

    expect(handled).toEqual([seq(1), seq(2), seq(3), seq(4), seq(5)]);
    expect(saved).toEqual({ 'shard-parent': SHARD_FINISHED, 'shard-child': seq(5) });
  });

  it('resumes in the child after a finished parent, after the saved record', async () => {
    shards = [
      { id: 'shard-parent', records: [seq(1), seq(2), seq(3)], closed: true },
      { id: 'shard-child', parent: 'shard-parent', records: [seq(4), seq(5), seq(6)], closed: false },
    ];

    const { handled } = await run(2, { 'shard-parent': SHARD_FINISHED, 'shard-child': seq(4) });

    expect(handled).toEqual([seq(5), seq(6)]);
  });

  it('resumes at the oldest record left when the saved one is past the retention, and says so', async () => {
    shards = [{ id: 'shard-old', records: [seq(1), seq(2), seq(3), seq(4)], closed: false, trimmed: 2 }];

    const { handled, logged } = await run(2, { 'shard-old': seq(1) });

    expect(handled).toEqual([seq(3), seq(4)]);
    expect(logged.join('\n')).toMatch(/shard-old.*trimmed/);
  });

  it('forgets a saved shard the stream no longer lists and reads the shards it lists from their oldest record', async () => {
    shards = [{ id: 'shard-new', parent: 'shard-gone', records: [seq(7), seq(8)], closed: false }];

    const { handled, saved } = await run(2, { 'shard-gone': seq(6) });

    expect(handled).toEqual([seq(7), seq(8)]);
    expect(saved).toEqual({ 'shard-new': seq(8) });
  });
});
