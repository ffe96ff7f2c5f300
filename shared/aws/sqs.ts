// The one way the service puts messages on queues. Callers hand over values, never bodies: every body is ASCII JSON
// (sqs-text.ts), so no string an event carries can make a queue refuse it, and the consumer's JSON.parse gives back
// exactly the strings that were sent. What SQS still refuses as the sender's fault comes back as a QueueRefusal, told
// apart from a passing failure (network, throttling), which stays for the caller to retry.
import {
  type MessageAttributeValue,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Config } from '../config.ts';
import { traced } from '../observability.ts';
import { asciiJson, asciiText, QueueRefusal } from './sqs-text.ts';

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
  /** Any JSON value; written as ASCII JSON. */
  value: unknown;
  /** String attributes (escaped like the body, so they are always carried too). */
  attributes?: Record<string, string>;
  delaySeconds?: number;
}

/** Errors of SendMessage that refuse the message itself: the same message is refused however often it is sent. */
const REFUSED_MESSAGE = new Set([
  'InvalidMessageContents',
  'InvalidParameterValue',
  'InvalidAttributeName',
  'InvalidAttributeValue',
]);

function entryOf(message: OutgoingMessage) {
  return {
    MessageBody: asciiJson(message.value),
    ...(message.delaySeconds !== undefined && { DelaySeconds: message.delaySeconds }),
    ...(message.attributes && {
      MessageAttributes: Object.fromEntries(
        Object.entries(message.attributes).map(([name, value]): [string, MessageAttributeValue] => [
          name,
          { DataType: 'String', StringValue: asciiText(value) },
        ]),
      ),
    }),
  };
}

/** Sends one message; throws QueueRefusal when SQS refuses it as the sender's fault, else the SDK's error. */
export async function sendMessage(sqs: SQSClient, queueUrl: string, message: OutgoingMessage): Promise<void> {
  try {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, ...entryOf(message) }));
  } catch (error) {
    // The SDK names an error by SQS's legacy code where the reply gives one (`AWS.SimpleQueueService.<code>`).
    const code = error instanceof Error ? error.name.replace(/^AWS\.SimpleQueueService\./, '') : '';
    if (REFUSED_MESSAGE.has(code)) throw new QueueRefusal(code, (error as Error).message);
    throw error;
  }
}

/** A message not queued: refused for good (SQS said the sender is at fault), or failed for a passing reason. */
export interface Unsent {
  index: number;
  refusal?: QueueRefusal;
}

export interface BatchSendOptions {
  /** Logs a failed SendMessageBatch call (the whole batch counts as unsent, for a passing reason). */
  onError: (error: unknown) => void;
  /** Ordered sources (a stream) send nothing after a passing failure: the remainder is reported unsent, unsent. */
  stopAtFailure?: boolean;
}

/**
 * Sends messages in batches of ten, in order, and returns those not queued, by ascending index. Callers decide what an
 * unsent message means for their own input (a failed record, a job to retry, a dead letter).
 */
export async function sendMessageBatches(
  sqs: SQSClient,
  queueUrl: string,
  messages: OutgoingMessage[],
  { onError, stopAtFailure = false }: BatchSendOptions,
): Promise<Unsent[]> {
  const unsent: Unsent[] = [];
  for (let start = 0; start < messages.length; start += SQS_BATCH) {
    if (stopAtFailure && unsent.some((u) => !u.refusal)) {
      for (let n = start; n < messages.length; n++) unsent.push({ index: n });
      break;
    }
    const batch = messages.slice(start, start + SQS_BATCH);
    try {
      const { Failed } = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((message, n) => ({ Id: String(n), ...entryOf(message) })),
        }),
      );
      for (const failure of Failed ?? []) {
        const index = Number(failure.Id);
        if (!(index >= 0 && index < batch.length)) continue;
        unsent.push({
          index: start + index,
          ...(failure.SenderFault && {
            refusal: new QueueRefusal(failure.Code ?? 'SenderFault', failure.Message ?? ''),
          }),
        });
      }
    } catch (error) {
      onError(error);
      for (let n = 0; n < batch.length; n++) unsent.push({ index: start + n });
    }
  }
  return unsent.sort((a, b) => a.index - b.index);
}

/** Why a consumer parked a message in its queue's dead-letter queue (message attributes of the dead letter). */
export interface DeadLetterReason {
  consumer: string;
  refusal: QueueRefusal;
}

/**
 * Parks a queue consumer's message in the dead-letter queue of the queue it came from (DEAD_LETTER_QUEUE_URL), as it
 * was, so a redrive runs it again, with the reason as attributes. For consumers whose own sends SQS refused.
 */
export async function sendToDeadLetterQueue(
  deps: { config: Pick<Config, 'sqsEndpoint' | 'deadLetterQueueUrl'> },
  message: unknown,
  { consumer, refusal }: DeadLetterReason,
): Promise<void> {
  const queueUrl = deps.config.deadLetterQueueUrl;
  if (!queueUrl) throw new Error('DEAD_LETTER_QUEUE_URL is not configured');
  await sendMessage(sqsClient(deps.config), queueUrl, {
    value: message,
    attributes: { consumer, refused_code: refusal.code, refused_reason: refusal.detail.slice(0, 1000) || '-' },
  });
}
