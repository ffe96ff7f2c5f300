// Deliveries queue → receivers: each job runs the delivery process of domain/webhooks/deliver.ts. The providers it
// needs (KMS or the local key for secrets, SES or the outbox for owner mail) are composed here, so only this
// function bundles their SDKs.
import { getDeps } from '../../shared/deps.ts';
import { type DeliveryDeps, deliver } from '../../shared/domain/webhooks/deliver.ts';
import { deliveryJobSchema } from '../../shared/domain/webhooks/delivery-queue.ts';
import { queueConsumer } from '../../shared/events/consumer.ts';
import { ownerMailer } from '../../shared/webhooks/owner-mail.ts';
import { secretCipher } from '../../shared/webhooks/secret-cipher.ts';
import { REPLY_TIMEOUT_MS } from '../../shared/webhooks/transport.ts';

export const createDeliveryHandler = (resolveDeps: () => DeliveryDeps) =>
  queueConsumer({
    id: 'webhooks.deliver',
    message: deliveryJobSchema,
    deps: resolveDeps,
    handle: (job, deps) => deliver(deps, job),
  });

export const handler = createDeliveryHandler(() => {
  const deps = getDeps();
  return {
    ...deps,
    cipher: secretCipher(deps.config),
    notifyOwner: ownerMailer(deps.config),
    replyTimeoutMs: REPLY_TIMEOUT_MS,
  };
});
