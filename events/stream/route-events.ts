// DynamoDB stream → events queue. Each committed vote, favourite or upload change becomes a domain event with a
// stable id; a failure reports the first unsent record so the stream retries from there, in order.
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { DomainEvent } from '../../shared/events/catalogue.ts';
import { sqsClient } from '../../shared/aws/sqs.ts';
import { getDeps } from '../../shared/deps.ts';
import { eventsFromRecord } from '../../shared/events/from-stream.ts';

const SQS_BATCH = 10;

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const deps = getDeps();
  const queueUrl = deps.config.eventsQueueUrl;
  if (!queueUrl) throw new Error('EVENTS_QUEUE_URL is not configured');
  const pending: { record: DynamoDBRecord; event: DomainEvent }[] = [];
  for (const record of event.Records)
    for (const e of eventsFromRecord(record, deps.config.mediaBaseUrl)) pending.push({ record, event: e });

  for (let i = 0; i < pending.length; i += SQS_BATCH) {
    const batch = pending.slice(i, i + SQS_BATCH);
    const result = await sqsClient(deps.config)
      .send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map(({ event: e }, n) => ({
            Id: String(n),
            MessageBody: JSON.stringify(e),
            MessageAttributes: { type: { DataType: 'String', StringValue: e.type } },
          })),
        }),
      )
      .catch((error: unknown) => {
        deps.log.error('publishing events failed', { error });
        return { Failed: batch.map((_, n) => ({ Id: String(n) })) };
      });
    const failed = (result.Failed ?? []).map((f) => Number(f.Id)).sort((a, b) => a - b);
    if (failed.length > 0) {
      const firstFailed = batch[failed[0]!]!.record;
      deps.log.error('events not published; the stream retries from this record', {
        sequenceNumber: firstFailed.dynamodb?.SequenceNumber,
      });
      return { batchItemFailures: [{ itemIdentifier: firstFailed.dynamodb!.SequenceNumber! }] };
    }
    deps.log.info('events published', { events: batch.map(({ event: e }) => ({ id: e.id, type: e.type })) });
  }
  return { batchItemFailures: [] };
}
