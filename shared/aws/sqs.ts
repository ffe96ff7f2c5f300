import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.ts';
import { traced } from '../observability.ts';

let client: { endpoint: string | undefined; sqs: SQSClient } | undefined;

/** One SQS client per container, imported only by the functions that send or receive (keeps other bundles small). */
export function sqsClient(config: Pick<Config, 'sqsEndpoint'>): SQSClient {
  // Keyed by endpoint: a local process that restarts its emulators (the benchmarks) gets a fresh client.
  if (!client || client.endpoint !== config.sqsEndpoint)
    client = {
      endpoint: config.sqsEndpoint,
      sqs: traced(new SQSClient(config.sqsEndpoint ? { endpoint: config.sqsEndpoint } : {})),
    };
  return client.sqs;
}

/** SendMessageBatch's limit. */
export const SQS_BATCH = 10;

export interface OutgoingMessage {
  body: string;
  attributes?: Record<string, string>;
}

export interface BatchSendOptions {
  /** Logs a failed SendMessageBatch call (the whole batch counts as unsent). */
  onError: (error: unknown) => void;
  /** Ordered sources (a stream) send nothing after a failure: the remainder is reported unsent, unsent. */
  stopAtFailure?: boolean;
}

/**
 * Sends messages in batches of ten, in order, and returns the ascending indexes that were not queued. Callers decide
 * what an unsent message means for their own input (a failed record, a job to retry).
 */
export async function sendMessageBatches(
  sqs: SQSClient,
  queueUrl: string,
  messages: OutgoingMessage[],
  { onError, stopAtFailure = false }: BatchSendOptions,
): Promise<number[]> {
  const unsent: number[] = [];
  for (let start = 0; start < messages.length; start += SQS_BATCH) {
    if (stopAtFailure && unsent.length > 0) {
      for (let n = start; n < messages.length; n++) unsent.push(n);
      break;
    }
    const batch = messages.slice(start, start + SQS_BATCH);
    try {
      const { Failed } = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((message, n) => ({
            Id: String(n),
            MessageBody: message.body,
            ...(message.attributes && {
              MessageAttributes: Object.fromEntries(
                Object.entries(message.attributes).map(([name, value]) => [
                  name,
                  { DataType: 'String', StringValue: value },
                ]),
              ),
            }),
          })),
        }),
      );
      for (const failure of Failed ?? []) {
        const index = Number(failure.Id);
        if (index >= 0 && index < batch.length) unsent.push(start + index);
      }
    } catch (error) {
      onError(error);
      for (let n = 0; n < batch.length; n++) unsent.push(start + n);
    }
  }
  return unsent.sort((a, b) => a - b);
}
