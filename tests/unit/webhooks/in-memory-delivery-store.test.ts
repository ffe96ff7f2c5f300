// The consumer tests' in-memory delivery store keeps the rules the DynamoDB store keeps
// (tests/integration/delivery-store.test.ts runs the same contract against DynamoDB Local).
import { CONTRACT_NOW, deliveryStoreContract } from '../../support/delivery-store-contract.ts';
import { inMemoryDeliveryStore } from '../../support/in-memory-delivery-store.ts';

deliveryStoreContract('the in-memory fake', () => {
  const store = inMemoryDeliveryStore(() => CONTRACT_NOW);
  return {
    store,
    putWebhook: async (item) => store.put({ ...item }),
    removeWebhook: async (accountId, webhookId) => store.remove(accountId, webhookId),
    readWebhook: async (accountId, webhookId) => {
      const item = store.get(accountId, webhookId);
      return item && { ...item };
    },
    readAttempts: async (webhookId, eventId) =>
      store.attempts.filter((a) => a.webhook_id === webhookId && a.event_id === eventId),
  };
});
