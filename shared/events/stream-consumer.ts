// The per-record wrapper of table-stream consumers, as queueConsumer is for queues: records are handled in order; the
// consumer's own filter (checked again here, since the local runner hands over every record) picks what it handles;
// a failure stops the batch at that record, so the stream retries from it and nothing after it runs twice. Lambda
// gives up after the event source's retries and parks the record in the consumer's stream DLQ (alarmed).
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type Deps, getDeps } from '../deps.ts';
import { traceIfSampled } from '../observability.ts';

export interface StreamConsumerOptions<T> {
  /** The consumer table's id, logged with every failure. */
  id: string;
  /** What the record means to this consumer, or undefined when it is none of its business. */
  select: (record: DynamoDBRecord) => T | undefined;
  handle: (selected: T, deps: Deps) => Promise<void>;
}

export function streamConsumer<T>(options: StreamConsumerOptions<T>) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const deps = getDeps();
    await traceIfSampled();
    const log = deps.log.child({ consumer: options.id });
    for (const record of event.Records) {
      const selected = options.select(record);
      if (selected === undefined) continue;
      try {
        await options.handle(selected, { ...deps, log });
      } catch (error) {
        log.error('stream record failed; the stream retries from it', {
          consumer: options.id,
          sequenceNumber: record.dynamodb?.SequenceNumber,
          error,
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
