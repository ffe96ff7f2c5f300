// S3 "object created" notifications (via the uploads queue) → domain/images/processing.ts. The labeller is composed
// here: Rekognition deployed, the local adapter under npm start, so only this function bundles the Rekognition SDK.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { localLabeller } from '../../shared/adapters/local-labeller.ts';
import { rekognitionLabeller } from '../../shared/adapters/rekognition-labeller.ts';
import { getDeps } from '../../shared/deps.ts';
import { processUploadedObject } from '../../shared/domain/images/processing.ts';

interface S3Notification {
  Records?: { eventName?: string; s3: { bucket: { name: string }; object: { key: string; size?: number } } }[];
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = getDeps();
  const labeller = deps.config.labelsProvider === 'rekognition' ? rekognitionLabeller : localLabeller;
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records) {
    try {
      const notification = JSON.parse(message.body) as S3Notification;
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
        await processUploadedObject(deps, labeller, record.s3.bucket.name, key);
      }
    } catch (error) {
      deps.log.error('processing an upload failed; SQS will retry it', { messageId: message.messageId, error });
      batchItemFailures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures };
}
