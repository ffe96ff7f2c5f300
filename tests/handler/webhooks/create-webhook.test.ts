import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountStatsKey, webhookKey } from '../../../shared/db/keys.ts';
import { handler } from '../../../functions/webhooks/create-webhook.ts';
import { localSecretCipher } from '../../../shared/adapters/secret-cipher/local.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  call,
  mockWebhookRoutes,
  NEW_ID,
  NOW,
  RESTRICTED_KEY,
  SECRET_KEY,
  useWebhookConfig,
} from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('POST /v1/webhooks', () => {
  const create = (body: unknown, apiKey?: string) =>
    call(handler, { method: 'POST', path: '/v1/webhooks', body, apiKey });
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
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
  });

  it('stores the secret only encrypted, bound to the endpoint id', async () => {
    const { signing_secret } = jsonBody(await create(valid));

    const [call] = ddb.commandCalls(TransactWriteCommand);
    expect(JSON.stringify(call!.args[0].input)).not.toContain(signing_secret);
    const stored = writeTo(ddb, webhookKey('acc-user', NEW_ID)).put as { encrypted_secret: string };
    expect(stored).toMatchObject({ type: 'Webhook' });
    await expect(localSecretCipher(SECRET_KEY).decrypt(stored.encrypted_secret, NEW_ID)).resolves.toBe(signing_secret);
    await expect(localSecretCipher(SECRET_KEY).decrypt(stored.encrypted_secret, 'another-endpoint')).rejects.toThrow();
  });

  // The limit itself (five, also under concurrent creates) is DynamoDB's to keep: tests/integration/webhooks.test.ts.
  it("counts the endpoint on the account's counters in the same transaction", async () => {
    await create(valid);

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, webhookKey('acc-user', NEW_ID)).put).toMatchObject({ type: 'Webhook' });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ webhooks: { add: 1 } });
  });

  it('answers a sixth endpoint with 400 webhook_limit_reached', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(accountStatsKey('acc-user')));

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
    useWebhookConfig({ allowLoopbackWebhooks: true });

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
