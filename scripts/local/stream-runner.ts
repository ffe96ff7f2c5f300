// Local stand-in for Lambda's DynamoDB stream event source: reads DynamoDB Local's stream shards in order and hands
// each batch to the same consumer handler; a reported failure re-reads from that record, as Lambda does.
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { toLambdaDynamoDBRecord } from './lambda-events.ts';

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface StreamRunnerOptions {
  endpoint: string;
  tableName: string;
  handler: StreamHandler;
  pollMs?: number;
  batchSize: number;
  log?: (message: string, error?: unknown) => void;
}

export async function startStreamRunner(options: StreamRunnerOptions): Promise<{ stop(): Promise<void> }> {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const ddb = new DynamoDBClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: options.tableName }));
  if (!Table?.LatestStreamArn) throw new Error(`table ${options.tableName} has no stream`);
  const streamArn = Table.LatestStreamArn;
  const pollMs = options.pollMs ?? 50;
  const log = options.log ?? (() => {});

  /** Shard id → iterator; started at LATEST so the seed step's writes are not replayed. */
  const iterators = new Map<string, string | undefined>();
  const finished = new Set<string>();
  let stopped = false;

  async function discoverShards(initial: boolean) {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (iterators.has(id) || finished.has(id)) continue;
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: id,
          ShardIteratorType: initial ? 'LATEST' : 'TRIM_HORIZON',
        }),
      );
      iterators.set(id, ShardIterator);
    }
  }

  async function deliver(shardId: string, records: _Record[]): Promise<boolean> {
    const batchSize = options.batchSize;
    for (let i = 0; i < records.length; i += batchSize) {
      const batch = records.slice(i, i + batchSize);
      const result = await options
        .handler({ Records: batch.map((record) => toLambdaDynamoDBRecord(toTheSecond(record), streamArn)) })
        .catch((error: unknown) => {
          log('stream consumer crashed; retrying the batch', error);
          return { batchItemFailures: [{ itemIdentifier: batch[0]!.dynamodb!.SequenceNumber! }] };
        });
      const failedAt = result?.batchItemFailures?.[0]?.itemIdentifier;
      if (failedAt) {
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ShardIteratorType: 'AT_SEQUENCE_NUMBER',
            SequenceNumber: failedAt,
          }),
        );
        iterators.set(shardId, ShardIterator);
        return false;
      }
      for (const record of batch) firstRead.delete(record.dynamodb?.SequenceNumber ?? '');
    }
    return true;
  }

  /**
   * DynamoDB Local rounds ApproximateCreationDateTime down to the minute; DynamoDB (and so Lambda's event) to the
   * second. A record is read within a poll interval of its write, so the second it was first read, bounded by the
   * minute the emulator reports, is the creation time to the second.
   */
  const firstRead = new Map<string, number>();
  function toTheSecond(record: _Record): _Record {
    const reported = record.dynamodb?.ApproximateCreationDateTime;
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    if (!reported || !sequenceNumber || reported.getTime() % 60_000 !== 0) return record;
    const readAt = firstRead.get(sequenceNumber) ?? Date.now();
    firstRead.set(sequenceNumber, readAt);
    const second = Math.floor(Math.min(readAt, reported.getTime() + 59_000) / 1000) * 1000;
    return { ...record, dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: new Date(second) } };
  }

  await discoverShards(true);
  const loop = (async () => {
    let rounds = 0;
    while (!stopped) {
      try {
        if (rounds++ % 40 === 0) await discoverShards(false);
        for (const [shardId, iterator] of iterators) {
          if (!iterator) {
            iterators.delete(shardId);
            finished.add(shardId);
            continue;
          }
          const { Records = [], NextShardIterator } = await streams.send(
            new GetRecordsCommand({ ShardIterator: iterator }),
          );
          iterators.set(shardId, NextShardIterator);
          if (Records.length > 0 && !(await deliver(shardId, Records))) await sleep(500);
        }
      } catch (error) {
        if (!stopped) log('stream runner error', error);
      }
      await sleep(pollMs);
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await loop;
      ddb.destroy();
      streams.destroy();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
