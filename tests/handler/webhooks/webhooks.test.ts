import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';
import { EVENT_NAMES } from '../../../shared/events/catalogue.ts';
import { handler as createHandler } from '../../../functions/webhooks/create-webhook.ts';
import { handler as deleteHandler } from '../../../functions/webhooks/delete-webhook.ts';
import { handler as getHandler } from '../../../functions/webhooks/get-webhook.ts';
import { handler as deliveriesHandler } from '../../../functions/webhooks/list-webhook-deliveries.ts';
import { handler as topicsHandler } from '../../../functions/webhooks/list-topics.ts';
import { handler as listHandler } from '../../../functions/webhooks/list-webhooks.ts';
import { handler as redeliverHandler } from '../../../functions/webhooks/redeliver-event.ts';
import { handler as rotateHandler } from '../../../functions/webhooks/rotate-webhook-secret.ts';
import { handler as testEventHandler } from '../../../functions/webhooks/send-test-event.ts';
import { loadConfig, type Config } from '../../../shared/config.ts';
import {
  webhookAttemptsPartition,
  webhookEventAttemptsPartition,
  webhookEventKey,
  webhookKey,
} from '../../../shared/db/keys.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { localSecretCipher } from '../../../shared/webhooks/secret-cipher.ts';
import { anAccount, mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const THIRTY_DAYS = 30 * 24 * 60 * 60;
const NEW_ID = '01KAWH0000000000000000000A';
const SECRET_KEY = randomBytes(32).toString('base64');
const DELIVERIES_QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries';
const RESTRICTED_KEY = 'live_no-webhooks-key';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;
interface Call {
  method?: string;
  path: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  apiKey?: string;
}
const call = (handler: Handler, { apiKey = USER_KEY, ...input }: Call) =>
  handler(httpEvent({ ...input, headers: { 'x-api-key': apiKey } }), lambdaContext);

const storedWebhook = (overrides: Record<string, unknown> = {}) =>
  aStoredWebhook({
    url: 'https://hooks.example.com/pets',
    description: 'votes to our CRM',
    encrypted_secret: 'stored-ciphertext',
    ...overrides,
  });

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

let ddb: ReturnType<typeof mockDynamoWithAccounts>;
const sqs = mockClient(SQSClient);

function useConfig(overrides: Partial<Config> = {}) {
  const config = {
    ...loadConfig(),
    webhookSecretKey: SECRET_KEY,
    webhookDeliveriesQueueUrl: DELIVERIES_QUEUE,
    allowLoopbackWebhooks: false,
    ...overrides,
  };
  setDepsForTest({ config, now: () => NOW, newId: () => NEW_ID });
}

beforeEach(() => {
  ddb = mockDynamoWithAccounts([
    ...standardAccounts(),
    { apiKey: RESTRICTED_KEY, account: anAccount({ id: 'acc-restricted', disabled_capabilities: ['webhooks'] }) },
  ]);
  ddb.on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') }).resolves({ Item: storedWebhook() });
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  useConfig();
});

describe('GET /v1/webhooks/topics', () => {
  it('lists the event catalogue with descriptions', async () => {
    const body = jsonBody(await call(topicsHandler, { path: '/v1/webhooks/topics' }));

    expect(body.map((t: { name: string }) => t.name)).toEqual(EVENT_NAMES);
    expect(body[0]).toEqual({ name: 'vote.created', description: 'a vote was recorded' });
  });
});

describe('POST /v1/webhooks', () => {
  const create = (body: unknown, apiKey?: string) =>
    call(createHandler, { method: 'POST', path: '/v1/webhooks', body, apiKey });
  const valid = {
    url: 'https://hooks.example.com/pets',
    description: 'votes to our CRM',
    enabled_events: ['vote.created', 'favourite.created'],
  };

  beforeEach(() => {
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('registers the endpoint and shows its signing secret once, with status 200', async () => {
    const result = await create(valid);

    expect(result).toMatchObject({ statusCode: 200 });
    const body = jsonBody(result);
    expect(body).toEqual({
      id: NEW_ID,
      url: 'https://hooks.example.com/pets',
      description: 'votes to our CRM',
      enabled_events: ['vote.created', 'favourite.created'],
      status: 'enabled',
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      consecutive_failures: 0,
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
  });

  it('stores the secret only encrypted, bound to the endpoint id', async () => {
    const { signing_secret } = jsonBody(await create(valid));

    const [call] = ddb.commandCalls(TransactWriteCommand);
    const input = call!.args[0].input;
    expect(JSON.stringify(input)).not.toContain(signing_secret);
    const item = input.TransactItems![1]!.Put!.Item!;
    expect(item).toMatchObject({ ...webhookKey('acc-user', NEW_ID), type: 'Webhook' });
    await expect(localSecretCipher(SECRET_KEY).decrypt(item.encrypted_secret, NEW_ID)).resolves.toBe(signing_secret);
    await expect(localSecretCipher(SECRET_KEY).decrypt(item.encrypted_secret, 'another-endpoint')).rejects.toThrow();
  });

  it('counts the endpoint against the limit of five in the same transaction', async () => {
    await create(valid);

    const [call] = ddb.commandCalls(TransactWriteCommand);
    expect(call!.args[0].input.TransactItems![0]!.Update).toMatchObject({
      Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' },
      UpdateExpression: 'ADD #stat :delta',
      ConditionExpression: 'attribute_not_exists(#stat) OR #stat < :max',
      ExpressionAttributeNames: { '#stat': 'webhooks' },
      ExpressionAttributeValues: { ':delta': 1, ':max': 5 },
    });
  });

  it('answers a sixth endpoint with 400 webhook_limit_reached', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));

    const result = await create(valid);

    expect(result).toMatchObject({ statusCode: 400 });
    expect(jsonBody(result)).toMatchObject({ code: 'webhook_limit_reached', limit: 5 });
  });

  it('accepts unknown event names as given and drops repeats', async () => {
    const body = jsonBody(
      await create({ ...valid, enabled_events: ['vote.created', 'pet.bcs.reviewed', 'no.such.event', 'vote.created'] }),
    );

    expect(body.enabled_events).toEqual(['vote.created', 'pet.bcs.reviewed', 'no.such.event']);
  });

  it.each([
    ['http://hooks.example.com/pets', 'url must use https'],
    ['http://127.0.0.1:8080/hook', 'url must use https'],
    [
      'https://10.0.0.5/hook',
      'url must point to a public address (private, loopback, link-local and metadata addresses are refused)',
    ],
    [
      'https://169.254.169.254/latest/meta-data',
      'url must point to a public address (private, loopback, link-local and metadata addresses are refused)',
    ],
    ['https://user:pass@hooks.example.com/pets', 'url must not contain a user name or password'],
    ['hooks.example.com/pets', 'url must be an absolute URL'],
  ])('refuses %s with 400 when deployed', async (url, message) => {
    const result = await create({ ...valid, url });

    expect(result).toMatchObject({ statusCode: 400 });
    expect(jsonBody(result)).toMatchObject({ code: 'invalid_webhook_url', message });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('accepts a loopback http receiver in local mode', async () => {
    useConfig({ allowLoopbackWebhooks: true });

    const result = await create({ ...valid, url: 'http://127.0.0.1:8080/hook' });

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result).url).toBe('http://127.0.0.1:8080/hook');
  });

  it('lists every body problem, one message each', async () => {
    const result = await create({
      url: 'https://hooks.example.com',
      description: 'x'.repeat(501),
      enabled_events: ['', 'e'.repeat(101)],
      colour: 'red',
    });

    expect(result).toMatchObject({ statusCode: 400 });
    expect(jsonBody(result).message).toEqual([
      'description must be at most 500 characters long',
      'enabled_events.0 must not be empty',
      'enabled_events.1 must be at most 100 characters long',
      "unknown field 'colour'",
    ]);
  });

  it('needs between one and fifty event names', async () => {
    const none = await create({ ...valid, enabled_events: [] });
    const tooMany = await create({ ...valid, enabled_events: Array.from({ length: 51 }, (_, i) => `event.${i}`) });

    expect(jsonBody(none).message).toEqual(['enabled_events must contain at least 1 items']);
    expect(jsonBody(tooMany).message).toEqual(['enabled_events must contain at most 50 items']);
  });

  it('answers 403 when the webhooks capability is switched off', async () => {
    const result = await create(valid, RESTRICTED_KEY);

    expect(jsonBody(result)).toMatchObject({ statusCode: 403, code: 'capability_disabled' });
  });
});

describe('GET /v1/webhooks', () => {
  it("lists the caller's endpoints without any secret", async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-user#WEBHOOKS' } })
      .resolves({ Items: [storedWebhook()] });

    const body = jsonBody(await call(listHandler, { path: '/v1/webhooks' }));

    expect(body).toEqual([
      {
        id: 'wh-1',
        url: 'https://hooks.example.com/pets',
        description: 'votes to our CRM',
        enabled_events: ['vote.created'],
        status: 'enabled',
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
        consecutive_failures: 0,
      },
    ]);
  });
});

describe('GET /v1/webhooks/{id}', () => {
  const get = (id: string) => call(getHandler, { path: `/v1/webhooks/${id}`, pathParameters: { id } });

  it('returns the endpoint, with when and why it was disabled', async () => {
    ddb.on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') }).resolves({
      Item: storedWebhook({
        status: 'disabled',
        disabled_at: NOW.toISOString(),
        disabled_reason: '10 delivery attempts failed in a row (last: HTTP 500)',
        consecutive_failures: 10,
      }),
    });

    expect(jsonBody(await get('wh-1'))).toMatchObject({
      id: 'wh-1',
      status: 'disabled',
      disabled_at: NOW.toISOString(),
      consecutive_failures: 10,
    });
  });

  it('answers 404 for an unknown id', async () => {
    expect(jsonBody(await get('wh-missing'))).toMatchObject({
      statusCode: 404,
      message: 'Webhook wh-missing does not exist',
    });
  });

  it("answers 404 for another account's endpoint, which is only ever looked up under the caller", async () => {
    ddb
      .on(GetCommand, { Key: webhookKey('acc-other', 'wh-2') })
      .resolves({ Item: storedWebhook({ ...webhookKey('acc-other', 'wh-2'), id: 'wh-2', account_id: 'acc-other' }) });

    expect(jsonBody(await get('wh-2'))).toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input.Key)).toContainEqual(webhookKey('acc-user', 'wh-2'));
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  const remove = (id: string, apiKey?: string) =>
    call(deleteHandler, { method: 'DELETE', path: `/v1/webhooks/${id}`, pathParameters: { id }, apiKey });

  it('deletes the endpoint and frees its place in the limit in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    expect(jsonBody(await remove('wh-1'))).toEqual({ message: 'SUCCESS', id: 'wh-1' });
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Delete).toMatchObject({
      Key: webhookKey('acc-user', 'wh-1'),
      ConditionExpression: 'attribute_exists(pk)',
    });
    expect(items[1]!.Update).toMatchObject({
      UpdateExpression: 'ADD #stat :delta',
      ExpressionAttributeNames: { '#stat': 'webhooks' },
      ExpressionAttributeValues: { ':delta': -1 },
    });
  });

  it('answers 404 when the endpoint does not exist', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));

    expect(jsonBody(await remove('wh-missing'))).toMatchObject({ statusCode: 404 });
  });

  it('answers 403 when the webhooks capability is switched off', async () => {
    expect(jsonBody(await remove('wh-1', RESTRICTED_KEY))).toMatchObject({
      statusCode: 403,
      code: 'capability_disabled',
    });
  });
});

describe('POST /v1/webhooks/{id}/rotate-secret', () => {
  const rotate = (id: string) =>
    call(rotateHandler, { method: 'POST', path: `/v1/webhooks/${id}/rotate-secret`, pathParameters: { id } });

  it('stores a new encrypted secret and returns it once', async () => {
    ddb.on(UpdateCommand, { TableName: 'test-table' }).resolves({});

    const body = jsonBody(await rotate('wh-1'));

    expect(body).toEqual({ id: 'wh-1', signing_secret: expect.stringMatching(/^whsec_/) });
    const update = ddb.commandCalls(UpdateCommand, { TableName: 'test-table' })[0]!.args[0].input;
    expect(update).toMatchObject({ Key: webhookKey('acc-user', 'wh-1'), ConditionExpression: 'attribute_exists(pk)' });
    await expect(
      localSecretCipher(SECRET_KEY).decrypt(update.ExpressionAttributeValues![':secret'], 'wh-1'),
    ).resolves.toBe(body.signing_secret);
  });

  it('answers 404 when the endpoint does not exist', async () => {
    ddb
      .on(UpdateCommand, { TableName: 'test-table' })
      .rejects(new ConditionalCheckFailedException({ message: 'condition failed', $metadata: {} }));

    expect(jsonBody(await rotate('wh-missing'))).toMatchObject({ statusCode: 404 });
  });
});

describe('GET /v1/webhooks/{id}/deliveries', () => {
  const attempt = (n: number) => ({
    id: `att-${n}`,
    webhook_id: 'wh-1',
    event_id: `evt_${n}`,
    event_type: 'vote.created',
    attempt: 1,
    attempted_at: `2026-11-2${n}T00:00:00.000Z`,
    status_code: n === 1 ? null : 200,
    error: n === 1 ? 'no reply within 5000 ms' : null,
    duration_ms: 12,
    succeeded: n !== 1,
  });
  const list = (id: string, query?: Record<string, string>) =>
    call(deliveriesHandler, { path: `/v1/webhooks/${id}/deliveries`, pathParameters: { id }, query });

  it('pages the attempt log newest first', async () => {
    ddb.on(QueryCommand).resolves({ Items: [attempt(4), attempt(3), attempt(2), attempt(1)] });

    const body = jsonBody(await list('wh-1', { limit: '2', page: '1' }));

    expect(body.map((a: { id: string }) => a.id)).toEqual(['att-2', 'att-1']);
    expect(body[1]).toEqual({
      id: 'att-1',
      event_id: 'evt_1',
      event_type: 'vote.created',
      attempt: 1,
      attempted_at: '2026-11-21T00:00:00.000Z',
      status_code: null,
      error: 'no reply within 5000 ms',
      duration_ms: 12,
      succeeded: false,
    });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ScanIndexForward: false,
      ExpressionAttributeValues: { ':partition': webhookAttemptsPartition('wh-1') },
    });
  });

  it('answers 404 for an unknown endpoint', async () => {
    expect(jsonBody(await list('wh-missing'))).toMatchObject({ statusCode: 404 });
  });

  it('refuses a limit outside 1-100', async () => {
    expect(jsonBody(await list('wh-1', { limit: '0' }))).toMatchObject({
      statusCode: 400,
      message: ['limit must be at least 1'],
    });
  });
});

describe('POST /v1/webhooks/{id}/test', () => {
  const sendTest = (id: string) =>
    call(testEventHandler, { method: 'POST', path: `/v1/webhooks/${id}/test`, pathParameters: { id } });

  it('stores a webhook.test event and queues its first attempt for this endpoint only', async () => {
    ddb.on(BatchWriteCommand).resolves({});

    const body = jsonBody(await sendTest('wh-1'));

    const eventId = `evt_test_${NEW_ID}`;
    expect(body).toEqual({ message: 'QUEUED', id: 'wh-1', event_id: eventId, event_type: 'webhook.test' });
    const [stored] = Object.values(ddb.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!).flat();
    expect(stored!.PutRequest!.Item).toMatchObject({
      ...webhookEventKey('acc-user', eventId),
      event_type: 'webhook.test',
      expiresAt: NOW.getTime() / 1000 + THIRTY_DAYS,
    });
    const [sent] = sqs.commandCalls(SendMessageCommand);
    expect(sent!.args[0].input).toMatchObject({ QueueUrl: DELIVERIES_QUEUE, DelaySeconds: 0 });
    expect(JSON.parse(sent!.args[0].input.MessageBody!)).toEqual({
      webhook_id: 'wh-1',
      attempt: 1,
      event: {
        id: eventId,
        event_type: 'webhook.test',
        account_id: 'acc-user',
        occurred_at: NOW.toISOString(),
        country_code: null,
        resource: { webhook_id: 'wh-1', message: 'This is a test event sent from the webhook API' },
      },
    });
  });

  it('answers 409 for a disabled endpoint, which receives nothing more', async () => {
    ddb
      .on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') })
      .resolves({ Item: storedWebhook({ status: 'disabled' }) });

    expect(jsonBody(await sendTest('wh-1'))).toMatchObject({ statusCode: 409, code: 'webhook_disabled' });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('answers 404 for an unknown endpoint', async () => {
    expect(jsonBody(await sendTest('wh-missing'))).toMatchObject({ statusCode: 404 });
  });
});

describe('POST /v1/webhooks/{id}/deliveries/{eventId}/redeliver', () => {
  const redeliver = (id: string, eventId: string) =>
    call(redeliverHandler, {
      method: 'POST',
      path: `/v1/webhooks/${id}/deliveries/${eventId}/redeliver`,
      pathParameters: { id, eventId },
    });
  const storedEvent = {
    id: 'evt_1',
    event_type: 'vote.created',
    account_id: 'acc-user',
    occurred_at: NOW.toISOString(),
    country_code: 'GB',
    resource: { id: 7 },
  };

  beforeEach(() => {
    ddb.on(GetCommand, { Key: webhookEventKey('acc-user', 'evt_1') }).resolves({ Item: storedEvent });
  });

  it('queues an event the endpoint had before, starting again at attempt 1', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': webhookEventAttemptsPartition('wh-1', 'evt_1') } })
      .resolves({ Items: [{ id: 'att-1' }] });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toEqual({
      message: 'QUEUED',
      id: 'wh-1',
      event_id: 'evt_1',
      event_type: 'vote.created',
    });
    const [sent] = sqs.commandCalls(SendMessageCommand);
    expect(JSON.parse(sent!.args[0].input.MessageBody!)).toMatchObject({
      webhook_id: 'wh-1',
      attempt: 1,
      event: { id: 'evt_1', event_type: 'vote.created', account_id: 'acc-user' },
    });
  });

  it('answers 404 when the endpoint never had that event', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    expect(jsonBody(await redeliver('wh-1', 'evt_1'))).toMatchObject({ statusCode: 404 });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('answers 404 for an unknown endpoint', async () => {
    expect(jsonBody(await redeliver('wh-missing', 'evt_1'))).toMatchObject({ statusCode: 404 });
  });
});
