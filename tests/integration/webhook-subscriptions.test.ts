// Which endpoints an event goes to, on DynamoDB Local: the dispatcher's one Query keeps the account's enabled endpoints
// subscribed to the event name (tests/handler/webhooks/dispatch-webhooks.test.ts takes the answer as given).
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect, it } from 'vitest';
import { subscribedWebhooks } from '../../shared/domain/webhooks/endpoints.ts';
import { aStoredWebhook } from '../support/factories/webhooks.ts';
import { depsOnLocalStack } from '../support/unreachable-store.ts';

const deps = depsOnLocalStack();
afterAll(() => deps.ddb.destroy());

it("finds the account's enabled endpoints subscribed to the event, and no other", async () => {
  const accountId = `acc-${randomUUID()}`;
  const endpoints = [
    { id: 'wh-votes', enabled_events: ['vote.created', 'favourite.created'] },
    { id: 'wh-favourites', enabled_events: ['favourite.created'] },
    { id: 'wh-disabled', enabled_events: ['vote.created'], status: 'disabled' },
    { id: 'wh-also-votes', enabled_events: ['vote.created'] },
  ];
  const others = { id: 'wh-other-account', account_id: `acc-${randomUUID()}`, enabled_events: ['vote.created'] };
  for (const fields of [...endpoints.map((e) => ({ ...e, account_id: accountId })), others])
    await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: aStoredWebhook(fields) }));

  const found = await subscribedWebhooks(deps, accountId, 'vote.created');

  expect(found.map((webhook) => webhook.id).sort()).toEqual(['wh-also-votes', 'wh-votes']);
});
