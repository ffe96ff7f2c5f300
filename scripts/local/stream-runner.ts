// Local stand-in for Lambda's DynamoDB stream event source: reads DynamoDB Local's stream shards in order and hands
// each batch to the same consumer handler, with the consumer table's retry settings: a reported failure re-reads from
// that record, a crash halves the batch (bisect), and a record that still fails after `retryAttempts` retries is
// described on the on-failure queue and passed over, as Lambda does, so one bad record never stalls its neighbours.
// With a checkpoint file (LOCAL_PERSIST=1) it starts where it stopped, as the event source mapping does: after the last
// record a handler succeeded with, each shard's records in order and a parent shard's before its children's.
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sendMessage } from '../../shared/aws/sqs.ts';
import { toLambdaDynamoDBRecord } from './lambda-events.ts';
import { readCheckpoint, SHARD_FINISHED, writeCheckpoint } from './stream-checkpoints.ts';

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface StreamRunnerOptions {
  /** The consumer table's id (named in on-failure records as Lambda names the function). */
  consumerId: string;
  endpoint: string;
  tableName: string;
  handler: StreamHandler;
  pollMs?: number;
  batchSize: number;
  /** The consumer table's `retryAttempts`: retries of a failing record before it goes to `onFailure`. */
  retryAttempts: number;
  /**
   * The event source's filter (shared/events/stream-filters.ts): records it refuses never reach the handler, as
   * deployed. Without one, every record does (an event source without filter criteria).
   */
  accepts?: (record: DynamoDBRecord) => boolean;
  /** Lambda's on-failure destination: an SQS queue that receives a description of each record given up on. */
  onFailure: { sqs: SQSClient; queueUrl: string };
  /** Pause before a failed batch is retried. */
  retryDelayMs?: number;
  /**
   * Where the runner keeps each shard's position (stream-checkpoints.ts) and resumes from: after the saved record, at
   * the shard's oldest record (TRIM_HORIZON) where none is saved. Without one it starts at the newest (LATEST), so an
   * in-memory table's seed writes are not replayed.
   */
  checkpointFile?: string;
  log?: (message: string, error?: unknown) => void;
}

/** A shard's failing record: how often it failed, and the batch size bisection has come down to. */
interface Retrying {
  sequenceNumber: string;
  retries: number;
  batchSize: number;
}

export async function startStreamRunner(options: StreamRunnerOptions): Promise<{ stop(): Promise<void> }> {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const ddb = new DynamoDBClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: options.tableName }));
  if (!Table?.LatestStreamArn) throw new Error(`table ${options.tableName} has no stream`);
  const streamArn = Table.LatestStreamArn;
  const pollMs = options.pollMs ?? 50;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const log = options.log ?? (() => {});
  const { accepts } = options;

  /** Shard id → iterator of the shards being read. */
  const iterators = new Map<string, string | undefined>();
  const finished = new Set<string>();
  const { checkpointFile } = options;
  if (checkpointFile) await mkdir(dirname(checkpointFile), { recursive: true });
  /** Shard id → the last record processed or SHARD_FINISHED: what the checkpoint file holds. */
  const positions = checkpointFile ? await readCheckpoint(checkpointFile, streamArn) : new Map<string, string>();
  for (const [shardId, position] of positions) if (position === SHARD_FINISHED) finished.add(shardId);
  let stopped = false;
  let rediscover = false;

  async function discoverShards(initial: boolean) {
    const shards = await describeShards();
    const listed = new Set(shards.map((shard) => shard.ShardId!));
    // Shards the stream no longer lists were trimmed away (24 h retention): nothing of theirs is left to resume.
    for (const shardId of positions.keys()) if (!listed.has(shardId)) positions.delete(shardId);
    for (const shard of shards) {
      const id = shard.ShardId!;
      if (iterators.has(id) || finished.has(id)) continue;
      // A shard split or closed: its children wait until it is read to its end, so each key's records stay in order.
      const parent = shard.ParentShardId;
      if (parent && listed.has(parent) && !finished.has(parent)) continue;
      iterators.set(id, await startingIterator(id, initial));
    }
  }

  async function describeShards() {
    const shards = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId }),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    return shards;
  }

  /** After the saved record; at the shard's oldest record without one (or at the newest when nothing is kept). */
  async function startingIterator(shardId: string, initial: boolean): Promise<string | undefined> {
    const saved = positions.get(shardId);
    if (saved) {
      try {
        return await iteratorAt(shardId, 'AFTER_SEQUENCE_NUMBER', saved);
      } catch (error) {
        if ((error as Error).name !== 'TrimmedDataAccessException') throw error;
        log(`records of shard ${shardId} after ${saved} were trimmed (24 h retention); resuming at its oldest record`);
      }
    }
    return iteratorAt(shardId, initial && !checkpointFile ? 'LATEST' : 'TRIM_HORIZON');
  }

  async function iteratorAt(
    shardId: string,
    type: 'LATEST' | 'TRIM_HORIZON' | 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER',
    sequenceNumber?: string,
  ): Promise<string | undefined> {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        SequenceNumber: sequenceNumber,
      }),
    );
    return ShardIterator;
  }

  /** Records the shard's new position; saved only once the handler succeeded with everything up to it. */
  async function checkpoint(shardId: string, position: string): Promise<void> {
    if (!checkpointFile || positions.get(shardId) === position) return;
    positions.set(shardId, position);
    await writeCheckpoint(checkpointFile, { streamArn, shards: Object.fromEntries(positions) });
  }

  const retrying = new Map<string, Retrying>();

  /** The first record that failed, if any: the one reported first, or the batch's first when the handler crashed. */
  async function invoke(batch: _Record[]): Promise<{ failedAt?: string; crashed: boolean }> {
    try {
      const result = await options.handler({
        Records: batch.map((record) => toLambdaDynamoDBRecord(toTheSecond(record), streamArn)),
      });
      return { failedAt: result?.batchItemFailures?.[0]?.itemIdentifier, crashed: false };
    } catch (error) {
      log('stream consumer crashed; retrying with half the batch', error);
      return { failedAt: batch[0]!.dynamodb!.SequenceNumber!, crashed: true };
    }
  }

  /**
   * Hands the records on in batches. `retry`: the shard pauses before a failed batch is read again; `passedOver`: a
   * record was given up on and the shard reads on after it (the records after it in this page come again).
   */
  async function deliver(shardId: string, records: _Record[]): Promise<'delivered' | 'retry' | 'passedOver'> {
    let position = 0;
    while (position < records.length) {
      const retry = retrying.get(shardId);
      const batch = records.slice(position, position + (retry?.batchSize ?? options.batchSize));
      const { failedAt, crashed } = await invoke(batch);
      if (failedAt === undefined) {
        for (const record of batch) firstRead.delete(record.dynamodb?.SequenceNumber ?? '');
        retrying.delete(shardId);
        position += batch.length;
        await checkpoint(shardId, sequenceNumberOf(batch.at(-1)!));
        continue;
      }
      const sameRecord = retry?.sequenceNumber === failedAt;
      if (crashed && batch.length > 1) {
        // Bisect: retry the first half alone; halving does not use up the record's retries.
        retrying.set(shardId, {
          sequenceNumber: failedAt,
          retries: sameRecord ? retry.retries : 0,
          batchSize: Math.ceil(batch.length / 2),
        });
        await moveTo(shardId, 'AT_SEQUENCE_NUMBER', failedAt);
        return 'retry';
      }
      const retries = sameRecord ? retry.retries + 1 : 1;
      if (retries <= options.retryAttempts) {
        retrying.set(shardId, { sequenceNumber: failedAt, retries, batchSize: batch.length });
        await moveTo(shardId, 'AT_SEQUENCE_NUMBER', failedAt);
        return 'retry';
      }
      retrying.delete(shardId);
      await giveUp(shardId, records.find((r) => r.dynamodb?.SequenceNumber === failedAt)!, retries);
      await checkpoint(shardId, failedAt);
      await moveTo(shardId, 'AFTER_SEQUENCE_NUMBER', failedAt);
      return 'passedOver';
    }
    return 'delivered';
  }

  async function moveTo(
    shardId: string,
    type: 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER',
    sequenceNumber: string,
  ): Promise<void> {
    iterators.set(shardId, await iteratorAt(shardId, type, sequenceNumber));
  }

  /** What Lambda sends to a stream source's on-failure destination: where the record is, not the record itself. */
  async function giveUp(shardId: string, record: _Record, invocations: number): Promise<void> {
    const sequenceNumber = record.dynamodb!.SequenceNumber!;
    const arrival = (record.dynamodb?.ApproximateCreationDateTime ?? new Date()).toISOString();
    log(`gave up on record ${sequenceNumber} after ${options.retryAttempts} retries; described on the failure queue`);
    await sendMessage(options.onFailure.sqs, options.onFailure.queueUrl, {
      value: {
        requestContext: {
          requestId: randomUUID(),
          functionArn: `arn:aws:lambda:us-east-1:000000000000:function:local-${options.consumerId}`,
          condition: 'RetryAttemptsExhausted',
          approximateInvokeCount: invocations,
        },
        responseContext: { statusCode: 200, executedVersion: '$LATEST' },
        version: '1.0',
        timestamp: new Date().toISOString(),
        DDBStreamBatchInfo: {
          shardId,
          startSequenceNumber: sequenceNumber,
          endSequenceNumber: sequenceNumber,
          approximateArrivalOfFirstRecord: arrival,
          approximateArrivalOfLastRecord: arrival,
          batchSize: 1,
          streamArn,
        },
      },
    });
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
        if (rounds++ % 40 === 0 || rediscover) {
          rediscover = false;
          await discoverShards(false);
        }
        for (const [shardId, iterator] of iterators) {
          if (!iterator) {
            iterators.delete(shardId);
            finished.add(shardId);
            await checkpoint(shardId, SHARD_FINISHED);
            rediscover = true; // its children may start now
            continue;
          }
          const { Records = [], NextShardIterator } = await streams.send(
            new GetRecordsCommand({ ShardIterator: iterator }),
          );
          iterators.set(shardId, NextShardIterator);
          const accepted = accepts
            ? Records.filter((record) => accepts(toLambdaDynamoDBRecord(record, streamArn)))
            : Records;
          const outcome = accepted.length > 0 ? await deliver(shardId, accepted) : 'delivered';
          if (outcome === 'retry') await sleep(retryDelayMs);
          // The records the filter refused count as processed too.
          else if (outcome === 'delivered' && Records.length > 0)
            await checkpoint(shardId, sequenceNumberOf(Records.at(-1)!));
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

const sequenceNumberOf = (record: _Record) => record.dynamodb!.SequenceNumber!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
