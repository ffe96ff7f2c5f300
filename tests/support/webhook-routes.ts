// Handler-test harness of the webhook routes: the caller (acc-user, USER_KEY), an account whose `webhooks`
// capability is switched off (RESTRICTED_KEY), the stored endpoint wh-1 the mocked table serves, the mocked deliveries
// queue, and a fixed clock, id and secret-encryption key.
import { randomBytes } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { type Config, loadConfig } from '../../shared/config.ts';
import { webhookKey } from '../../shared/db/keys.ts';
import { setDepsForTest } from '../../shared/deps.ts';
import { aStoredWebhook } from './factories/webhooks.ts';
import { anAccount, mockDynamoWithAccounts, standardAccounts, USER_KEY } from './fixtures.ts';
import { httpEvent, lambdaContext } from './http-event.ts';

export const NOW = new Date('2026-11-22T10:00:00.000Z');
export const NEW_ID = '01KAWH0000000000000000000A';
export const SECRET_KEY = randomBytes(32).toString('base64');
export const DELIVERIES_QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries';
export const RESTRICTED_KEY = 'live_no-webhooks-key';

/** The deliveries queue (one mock per test file: vitest isolates modules per file). */
export const sqs = mockClient(SQSClient);

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;
interface Call {
  method?: string;
  path: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  apiKey?: string;
}

/** Calls a webhook route's handler, by default as acc-user. */
export const call = (handler: Handler, { apiKey = USER_KEY, ...input }: Call) =>
  handler(httpEvent({ ...input, headers: { 'x-api-key': apiKey } }), lambdaContext);

/** An endpoint of acc-user as stored, with its encrypted secret. */
export const storedWebhook = (overrides: Record<string, unknown> = {}) =>
  aStoredWebhook({
    url: 'https://hooks.example.com/pets',
    description: 'votes to our CRM',
    encrypted_secret: 'stored-ciphertext',
    ...overrides,
  });

/** Deployed settings (no loopback receivers) with the test key and queue, the fixed clock and id. */
export function useWebhookConfig(overrides: Partial<Config> = {}) {
  const config = {
    ...loadConfig(),
    webhookSecretKey: SECRET_KEY,
    webhookDeliveriesQueueUrl: DELIVERIES_QUEUE,
    allowLoopbackWebhooks: false,
    ...overrides,
  };
  setDepsForTest({ config, now: () => NOW, newId: () => NEW_ID });
}

/** What every webhook route test starts from (call in beforeEach); returns the mocked table. */
export function mockWebhookRoutes() {
  const ddb = mockDynamoWithAccounts([
    ...standardAccounts(),
    { apiKey: RESTRICTED_KEY, account: anAccount({ id: 'acc-restricted', disabled_capabilities: ['webhooks'] }) },
  ]);
  ddb.on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') }).resolves({ Item: storedWebhook() });
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  useWebhookConfig();
  return ddb;
}
