import {
  InvalidMessageContents,
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  SendMessageCommand,
  type SendMessageCommandInput,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { AwsClientStub } from 'aws-sdk-client-mock';

/**
 * What the local queue carries: SQS's rule (#x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF) without
 * the astral range, which it refuses too. Matched code unit by code unit, as the queue does.
 */
const CARRIED = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD]*$/;
const REFUSAL = 'Invalid characters found.';

/**
 * A stand-in for SQS that refuses what the queues refuse, as the real ones answer it: SendMessage throws
 * InvalidMessageContents, SendMessageBatch fails that entry as the sender's fault. Everything else is queued.
 */
export function queueRefusingWhatQueuesRefuse(sqs: AwsClientStub<SQSClient>): void {
  sqs.on(SendMessageBatchCommand).callsFake(async (input: SendMessageBatchCommandInput) => ({
    Successful: [],
    Failed: input
      .Entries!.filter((e) => !CARRIED.test(e.MessageBody!))
      .map((e) => ({ Id: e.Id, SenderFault: true, Code: 'InvalidMessageContents', Message: REFUSAL })),
  }));
  sqs.on(SendMessageCommand).callsFake(async (input: SendMessageCommandInput) => {
    if (!CARRIED.test(input.MessageBody!)) throw new InvalidMessageContents({ message: REFUSAL, $metadata: {} });
    return { MessageId: 'queued' };
  });
}
