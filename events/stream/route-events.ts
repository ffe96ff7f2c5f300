// DynamoDB stream → events queue. Each committed vote, favourite or upload change becomes a domain event with a
// stable id. Records are published one at a time, in order: a record that fails for a passing reason is reported
// (the stream retries from it, and nothing after it was sent, so no neighbour is ever sent twice); a record that can
// never be published goes to the stream dead-letter queue (alarmed) and the records after it carry on.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { sendMessage, sendMessageBatches, sqsClient } from '../../shared/aws/sqs.ts';
import type { DomainEvent } from '../../shared/events/catalogue.ts';
import { getDeps, type Deps } from '../../shared/deps.ts';
import { eventsFromRecord } from '../../shared/events/from-stream.ts';
import { traceIfSampled } from '../../shared/observability.ts';

type Outcome = 'published' | 'retry';

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const deps = getDeps();
  await traceIfSampled();
  const queueUrl = deps.config.eventsQueueUrl;
  const deadLetterUrl = deps.config.streamDeadLetterQueueUrl;
  if (!queueUrl || !deadLetterUrl) throw new Error('EVENTS_QUEUE_URL and STREAM_DLQ_URL must be configured');
  const sqs = sqsClient(deps.config);

  for (const record of event.Records) {
    const outcome = await routeRecord(deps, sqs, { queueUrl, deadLetterUrl }, record);
    if (outcome === 'retry') {
      deps.log.error('events not published; the stream retries from this record', {
        sequenceNumber: record.dynamodb?.SequenceNumber,
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
}

interface Queues {
  queueUrl: string;
  deadLetterUrl: string;
}

async function routeRecord(deps: Deps, sqs: SQSClient, queues: Queues, record: DynamoDBRecord): Promise<Outcome> {
  let events: DomainEvent[];
  try {
    events = eventsFromRecord(record, deps.config.mediaBaseUrl);
  } catch (error) {
    // A record that does not decode never will: park it instead of blocking the shard.
    return deadLetter(deps, sqs, queues, record, undefined, `record could not be turned into events: ${error}`);
  }
  const unsent = await sendMessageBatches(
    sqs,
    queues.queueUrl,
    events.map((e) => ({ value: e, attributes: { type: e.type } })),
    { onError: (error) => deps.log.error('publishing events failed', { error }), stopAtFailure: true },
  );
  for (const { index, refusal } of unsent) {
    // A refusal (SQS: the sender's fault, such as the size) would be refused however often it is sent.
    if (!refusal) return 'retry';
    const reason = `${refusal.code}: ${refusal.detail}`;
    if ((await deadLetter(deps, sqs, queues, record, events[index], reason)) === 'retry') return 'retry';
  }
  const parked = new Set(unsent.map((u) => u.index));
  const published = events.filter((_, index) => !parked.has(index));
  if (published.length > 0)
    deps.log.info('events published', { events: published.map((e) => ({ id: e.id, type: e.type })) });
  return 'published';
}

/** Parks what cannot be published, as base64 so that the dead letter itself can always be carried. */
async function deadLetter(
  deps: Deps,
  sqs: SQSClient,
  queues: Queues,
  record: DynamoDBRecord,
  event: DomainEvent | undefined,
  reason: string,
): Promise<Outcome> {
  deps.log.error('event dead-lettered', {
    sequenceNumber: record.dynamodb?.SequenceNumber,
    eventId: event?.id,
    reason,
  });
  try {
    await sendMessage(sqs, queues.deadLetterUrl, {
      value: {
        reason: reason.slice(0, 1000),
        sequence_number: record.dynamodb?.SequenceNumber ?? null,
        event_id: event?.id ?? null,
        event_type: event?.type ?? null,
        payload_base64: Buffer.from(JSON.stringify(event ?? record)).toString('base64'),
      },
    });
    return 'published';
  } catch (error) {
    deps.log.error('dead-lettering failed', { error });
    return 'retry';
  }
}
