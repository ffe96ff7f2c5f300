// The delivery store on DynamoDB Local: the conditional writes of shared/domain/webhooks/attempts.ts keep the rules
// the consumer tests' in-memory fake is held to (tests/unit/webhooks/in-memory-delivery-store.test.ts).
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll } from 'vitest';
import { webhookEventAttemptsPartition, webhookKey } from '../../shared/db/keys.ts';
import { dynamoDeliveryStore } from '../../shared/domain/webhooks/attempts.ts';
import { CONTRACT_NOW, deliveryStoreContract } from '../support/delivery-store-contract.ts';
import { depsOnLocalStack } from '../support/unreachable-store.ts';

const deps = { ...depsOnLocalStack(), now: () => CONTRACT_NOW };
const TableName = deps.config.tableName;
afterAll(() => deps.ddb.destroy());

deliveryStoreContract('the DynamoDB store', () => ({
  store: dynamoDeliveryStore(deps),
  putWebhook: async (item) => {
    await deps.ddb.send(new PutCommand({ TableName, Item: item }));
  },
  removeWebhook: async (accountId, webhookId) => {
    await deps.ddb.send(new DeleteCommand({ TableName, Key: webhookKey(accountId, webhookId) }));
  },
  readWebhook: async (accountId, webhookId) =>
    (await deps.ddb.send(new GetCommand({ TableName, Key: webhookKey(accountId, webhookId), ConsistentRead: true })))
      .Item,
  readAttempts: async (webhookId, eventId) =>
    (
      await deps.ddb.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition(webhookId, eventId) },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [],
}));
