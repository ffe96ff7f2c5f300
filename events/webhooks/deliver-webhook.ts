// Deliveries queue → receivers: each job runs the delivery process of domain/webhooks/deliver.ts, the jobs of a
// batch to one endpoint sharing their writes. The providers it needs (KMS or the local key for secrets, SES or the
// outbox for owner mail) and the delivery store on the table are composed here, so only this function bundles their SDKs.
// A job whose next attempt SQS refuses for good goes to the deliveries queue's dead-letter queue at once.
import { sendToDeadLetterQueue } from '../../shared/aws/sqs.ts';
import { getDeps } from '../../shared/deps.ts';
import { type DeliveryDeps, deliveryBatch, postToReceivers } from '../../shared/domain/webhooks/deliver.ts';
import { dynamoDeliveryStore } from '../../shared/domain/webhooks/attempts.ts';
import { deliveryJobSchema } from '../../shared/domain/webhooks/delivery-queue.ts';
import { queueConsumer } from '../../shared/events/consumer.ts';
import { ownerMailerFor } from '../../shared/adapters/owner-mail/index.ts';
import { cachingDecrypts, secretCipherFor } from '../../shared/adapters/secret-cipher/index.ts';
import type { SecretCipher } from '../../shared/ports/secret-cipher.ts';
import { REPLY_TIMEOUT_MS } from '../../shared/webhooks/transport.ts';

export const createDeliveryHandler = (resolveDeps: () => DeliveryDeps) =>
  queueConsumer({
    id: 'webhooks.deliver',
    message: deliveryJobSchema,
    deps: () => {
      const deps = resolveDeps();
      return { ...deps, deliver: deliveryBatch(deps) };
    },
    handle: (job, deps) => deps.deliver(job),
    deadLetter: sendToDeadLetterQueue,
  });

/** Per warm container, so a secret is decrypted once per endpoint and rotation, not once per attempt. */
let cached: { key: string | undefined; cipher: SecretCipher } | undefined;

export const handler = createDeliveryHandler(() => {
  const deps = getDeps();
  // Keyed by the local key: a local process that restarts its stack with a new key (the benchmarks) starts afresh.
  if (!cached || cached.key !== deps.config.webhookSecretKey)
    cached = { key: deps.config.webhookSecretKey, cipher: cachingDecrypts(secretCipherFor(deps.config)) };
  return {
    ...deps,
    store: dynamoDeliveryStore(deps),
    cipher: cached.cipher,
    notifyOwner: ownerMailerFor(deps.config),
    post: postToReceivers(deps.config, REPLY_TIMEOUT_MS),
  };
});
