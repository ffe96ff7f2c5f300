// Deliveries queue → receivers: each job runs the delivery process of domain/webhooks/deliver.ts. The providers it
// needs (KMS or the local key for secrets, SES or the outbox for owner mail) are composed here, so only this
// function bundles their SDKs.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '../../shared/deps.ts';
import { type DeliveryDeps, deliver } from '../../shared/domain/webhooks/deliver.ts';
import { deliveryJobSchema } from '../../shared/domain/webhooks/delivery-queue.ts';
import { ownerMailer } from '../../shared/webhooks/owner-mail.ts';
import { secretCipher } from '../../shared/webhooks/secret-cipher.ts';
import { REPLY_TIMEOUT_MS } from '../../shared/webhooks/transport.ts';

/** A failed job is reported by message id; SQS hands it back after the visibility timeout (and to the DLQ in the end). */
export function createDeliveryHandler(resolveDeps: () => DeliveryDeps) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = resolveDeps();
    const failed = await Promise.all(
      event.Records.map(async (record) => {
        try {
          await deliver(deps, deliveryJobSchema.parse(JSON.parse(record.body)));
          return [];
        } catch (error) {
          deps.log.error('webhook job failed; SQS will hand it back', { messageId: record.messageId, error });
          return [{ itemIdentifier: record.messageId }];
        }
      }),
    );
    return { batchItemFailures: failed.flat() };
  };
}

export const handler = createDeliveryHandler(() => {
  const deps = getDeps();
  return {
    ...deps,
    cipher: secretCipher(deps.config),
    notifyOwner: ownerMailer(deps.config),
    replyTimeoutMs: REPLY_TIMEOUT_MS,
  };
});
