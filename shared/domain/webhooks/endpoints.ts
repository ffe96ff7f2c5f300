// Registering, reading, rotating and deleting endpoints; the limit of five is kept by the database.
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { statChange } from '../../db/account-stats.ts';
import { whenConditionFails } from '../../db/errors.ts';
import { accountWebhooksPartition, webhookKey } from '../../db/keys.ts';
import { transact } from '../../db/transact.ts';
import { badRequest, notFound } from '../../errors.ts';
import { checkWebhookUrl, type WebhookUrlRejection } from '../../webhooks/address-guard.ts';
import type { SecretCipher } from '../../ports/secret-cipher.ts';
import { generateSigningSecret } from '../../webhooks/signature.ts';
import type { NewWebhook } from './input.ts';
import { WEBHOOK_LIMIT, type WebhookDeps, type WebhookItem, webhookItemSchema } from './webhook.ts';

function urlProblem(reason: WebhookUrlRejection, allowLoopback: boolean): string {
  switch (reason) {
    case 'invalid_url':
      return 'url must be an absolute URL';
    case 'unsupported_scheme':
      return allowLoopback ? 'url must use https (http is accepted for loopback addresses only)' : 'url must use https';
    case 'credentials_in_url':
      return 'url must not contain a user name or password';
    case 'non_public_address':
      return 'url must point to a public address (private, loopback, link-local and metadata addresses are refused)';
  }
}

/**
 * Registers an endpoint with a new signing secret (stored encrypted). The account's endpoint count and the endpoint
 * are written in one transaction whose condition keeps the count at five even under concurrent creates.
 */
export async function createWebhook(deps: WebhookDeps, cipher: SecretCipher, accountId: string, input: NewWebhook) {
  const allowLoopback = deps.config.allowLoopbackWebhooks;
  const checked = checkWebhookUrl(input.url, { allowLoopback });
  if (!checked.ok) throw badRequest(urlProblem(checked.reason, allowLoopback), { code: 'invalid_webhook_url' });
  const id = deps.newId();
  const now = deps.now().toISOString();
  const signingSecret = generateSigningSecret();
  const webhook: WebhookItem = {
    id,
    account_id: accountId,
    url: checked.url,
    description: input.description,
    enabled_events: input.enabled_events,
    status: 'enabled',
    created_at: now,
    updated_at: now,
    consecutive_failures: 0,
    encrypted_secret: await cipher.encrypt(signingSecret, id),
  };
  const table = deps.config.tableName;
  const limitReached = badRequest(
    `An account can register at most ${WEBHOOK_LIMIT} webhook endpoints, disabled ones included; delete one first`,
    {
      code: 'webhook_limit_reached',
      details: { limit: WEBHOOK_LIMIT },
    },
  );
  await transact(
    deps.ddb,
    [
      statChange(table, accountId, 'webhooks', 1, { atMost: WEBHOOK_LIMIT }),
      {
        Put: {
          TableName: table,
          Item: { ...webhookKey(accountId, id), type: 'Webhook', ...webhook },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? limitReached : undefined),
  );
  return { webhook, signingSecret };
}

/** Oldest first (ids are ULIDs). At most five items, so one page. */
export async function listWebhooks(deps: WebhookDeps, accountId: string): Promise<WebhookItem[]> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': accountWebhooksPartition(accountId) },
    }),
  );
  return (Items ?? []).map((item) => webhookItemSchema.parse(item));
}

/** Strongly consistent for the delivery worker, so a rotated secret or a disable is seen at once. */
export async function findWebhook(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  { consistentRead = false } = {},
): Promise<WebhookItem | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({
      TableName: deps.config.tableName,
      Key: webhookKey(accountId, webhookId),
      ConsistentRead: consistentRead,
    }),
  );
  return Item ? webhookItemSchema.parse(Item) : undefined;
}

/** Endpoints are keyed under their account, so another account's endpoint is indistinguishable from none: 404. */
export async function getOwnWebhook(deps: WebhookDeps, accountId: string, webhookId: string): Promise<WebhookItem> {
  const webhook = await findWebhook(deps, accountId, webhookId);
  if (!webhook) throw notFound(`Webhook ${webhookId} does not exist`);
  return webhook;
}

/** Deletes the endpoint and frees its place in the limit, both or neither. Its attempt log expires with its TTL. */
export async function deleteWebhook(deps: WebhookDeps, accountId: string, webhookId: string): Promise<void> {
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      {
        Delete: {
          TableName: table,
          Key: webhookKey(accountId, webhookId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      statChange(table, accountId, 'webhooks', -1),
    ],
    (reasons) =>
      reasons[0] === 'ConditionalCheckFailed' ? notFound(`Webhook ${webhookId} does not exist`) : undefined,
  );
}

/** Replaces the secret; the worker reads the secret at every attempt, so the previous one is never used again. */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  cipher: SecretCipher,
  accountId: string,
  webhookId: string,
): Promise<string> {
  const signingSecret = generateSigningSecret();
  await whenConditionFails(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: webhookKey(accountId, webhookId),
        UpdateExpression: 'SET encrypted_secret = :secret, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':secret': await cipher.encrypt(signingSecret, webhookId),
          ':now': deps.now().toISOString(),
        },
      }),
    ),
    () => {
      throw notFound(`Webhook ${webhookId} does not exist`);
    },
  );
  return signingSecret;
}

/** An operator's disable: the endpoint stays listed, receives nothing more and says why. Disabling twice is a no-op. */
export async function disableWebhook(
  deps: WebhookDeps,
  accountId: string,
  webhookId: string,
  reason: string,
): Promise<WebhookItem> {
  const now = deps.now().toISOString();
  const disabled = await whenConditionFails(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: webhookKey(accountId, webhookId),
        UpdateExpression: 'SET #status = :disabled, disabled_at = :now, disabled_reason = :reason, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status = :enabled',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':disabled': 'disabled', ':enabled': 'enabled', ':now': now, ':reason': reason },
        ReturnValues: 'ALL_NEW',
      }),
    ),
    () => undefined,
  );
  return disabled?.Attributes
    ? webhookItemSchema.parse(disabled.Attributes)
    : getOwnWebhook(deps, accountId, webhookId);
}

/** The account's enabled endpoints subscribed to this event name: one Query of at most five items. */
export async function subscribedWebhooks(
  deps: WebhookDeps,
  accountId: string,
  eventType: string,
): Promise<WebhookItem[]> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: '#status = :enabled AND contains(enabled_events, :type)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': accountWebhooksPartition(accountId),
        ':enabled': 'enabled',
        ':type': eventType,
      },
    }),
  );
  return (Items ?? []).map((item) => webhookItemSchema.parse(item));
}
