// Local stand-in for Lambda's SQS event source: long-polls a fauxqs queue, hands batches to the same consumer
// handler, deletes what succeeded and leaves reported failures to reappear after their visibility timeout.
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { toLambdaSQSRecord } from './lambda-events.ts';

export interface QueueRunnerOptions {
  sqs: SQSClient;
  queueUrl: string;
  handler: (event: SQSEvent) => Promise<SQSBatchResponse>;
  batchSize: number;
  log?: (message: string, error?: unknown) => void;
}

export function startQueueRunner(options: QueueRunnerOptions): { stop(): Promise<void> } {
  let stopped = false;
  const log = options.log ?? (() => {});
  const loop = (async () => {
    let queueArn: string | undefined;
    while (!stopped) {
      try {
        queueArn ??= await queueArnOf(options.sqs, options.queueUrl);
        const arn = queueArn;
        const { Messages = [] } = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        if (Messages.length === 0) continue;
        const records = Messages.map((message) => toLambdaSQSRecord(message, arn));
        const result = await options.handler({ Records: records }).catch((error: unknown) => {
          log('queue consumer crashed; the whole batch will be retried', error);
          return { batchItemFailures: records.map((r) => ({ itemIdentifier: r.messageId })) };
        });
        const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
        const done = records.filter((r) => !failed.has(r.messageId));
        if (done.length > 0) {
          await options.sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          );
        }
      } catch (error) {
        if (!stopped) log('queue runner error', error);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** Lambda names the queue by its ARN in every record. */
async function queueArnOf(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  if (!Attributes?.QueueArn) throw new Error(`queue ${queueUrl} has no ARN`);
  return Attributes.QueueArn;
}
