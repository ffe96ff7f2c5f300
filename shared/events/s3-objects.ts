// The SQS consumer shape of every "object created" processor: S3 notifications arrive on a queue, each object is
// handled on its own, and a failed message is reported alone so SQS retries it (then its DLQ) without its neighbours.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps, type Deps } from '../deps.ts';

interface S3Notification {
  Records?: { eventName?: string; s3: { bucket: { name: string }; object: { key: string } } }[];
}

export function objectCreatedConsumer(handle: (deps: Deps, key: string) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = getDeps();
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const message of event.Records) {
      try {
        const notification = JSON.parse(message.body) as S3Notification;
        for (const record of notification.Records ?? []) {
          if (!record.eventName?.startsWith('ObjectCreated')) continue;
          await handle(deps, decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')));
        }
      } catch (error) {
        deps.log.error('processing an object failed; SQS will retry it', { messageId: message.messageId, error });
        batchItemFailures.push({ itemIdentifier: message.messageId });
      }
    }
    return { batchItemFailures };
  };
}
