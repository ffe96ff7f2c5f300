import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/create-account.ts';
import { hashApiKey } from '../../../shared/auth/api-keys.ts';
import { accountKey, apiKeyKey } from '../../../shared/db/keys.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { callAccountRoute, mockAccountRoutes } from '../../support/account-routes.ts';
import { USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const post = (body: unknown, headers: Record<string, string>, apiKey?: string) =>
  callAccountRoute(handler, { method: 'POST', path: '/v1/accounts', headers, body, apiKey });
const create = (body: unknown, apiKey?: string) => post(body, { 'content-type': 'application/json' }, apiKey);

describe('POST /v1/accounts', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes();
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('creates an account with defaults and returns its plain API key once, with status 201', async () => {
    const result = await create({ name: 'Acme', email: 'ops@acme.test', features: ['full_breed_schema'] });

    expect(result).toMatchObject({ statusCode: 201 });
    const body = jsonBody(result);
    expect(body).toMatchObject({
      id: 'acc-new',
      name: 'Acme',
      email: 'ops@acme.test',
      role: 'user',
      status: 'active',
      features: ['full_breed_schema'],
      quota: 100,
    });
    expect(body.api_key).toMatch(/^live_[A-Za-z0-9_-]{40}$/);
  });

  it('stores only the SHA-256 hash of the key, with the account, in one conditional transaction', async () => {
    const body = jsonBody(await create({ name: 'Acme' }));

    const [call] = ddb.commandCalls(TransactWriteCommand);
    expect(JSON.stringify(call!.args[0].input)).not.toContain(body.api_key);
    // Each only where nothing is stored yet.
    expect(writeTo(ddb, accountKey('acc-new'))).toMatchObject({ put: { name: 'Acme' }, conditional: true });
    expect(writeTo(ddb, apiKeyKey(hashApiKey(body.api_key)))).toMatchObject({
      put: { accountId: 'acc-new' },
      conditional: true,
    });
  });

  it('rejects a non-admin caller with 403', async () => {
    const result = await create({ name: 'Acme' }, USER_KEY);

    expect(result).toMatchObject({ statusCode: 403 });
    expect(jsonBody(result)).toMatchObject({ code: 'admin_only', error: 'Forbidden', path: '/v1/accounts' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('lists every validation problem of the body, one message each', async () => {
    const result = await create({ name: '', role: 'owner', features: ['flying'], quota: -1, colour: 'red' });

    expect(result).toMatchObject({ statusCode: 400 });
    expect(jsonBody(result).message).toEqual([
      'name must not be empty',
      'role must be one of: admin, user, vet',
      'features.0 must be one of: full_breed_schema, body_condition, calculators, respiratory_rate',
      'quota must be at least 0',
      "unknown field 'colour'",
    ]);
  });

  it("answers malformed JSON with 400, not the parser's 415/422", async () => {
    const result = await create('{"name": ');

    expect(result).toMatchObject({ statusCode: 400 });
    expect(jsonBody(result)).toMatchObject({ message: 'Request body is not valid JSON', code: 'invalid_body' });
  });

  it('answers a non-JSON content type with 400', async () => {
    const result = await post('name=Acme', { 'content-type': 'text/plain' });

    expect(jsonBody(result)).toMatchObject({ statusCode: 400, message: 'Content-Type must be application/json' });
  });

  it('answers a missing body with 400', async () => {
    expect(jsonBody(await post(undefined, { 'content-type': 'application/json' }))).toMatchObject({ statusCode: 400 });
  });
});
