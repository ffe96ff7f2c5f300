import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/rotate-api-key.ts';
import { hashApiKey } from '../../../shared/auth/api-keys.ts';
import { accountKey, apiKeyKey } from '../../../shared/db/keys.ts';
import { callAccountRoute, mockAccountRoutes, NOW } from '../../support/account-routes.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

const rotate = (body: unknown) =>
  callAccountRoute(handler, { method: 'POST', path: '/v1/accounts/api-key/rotate', body, apiKey: USER_KEY });

describe('POST /v1/accounts/api-key/rotate', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes();
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('answers a new key once, the old key’s end after the grace period, and stores only hashes', async () => {
    const result = await rotate({ grace_period_seconds: 3600 });

    expect(result).toMatchObject({ statusCode: 200 });
    const body = jsonBody(result);
    expect(body).toEqual({
      api_key: expect.stringMatching(/^live_[A-Za-z0-9_-]{40}$/),
      previous_key_expires_at: '2026-11-22T11:00:00.000Z',
      grace_period_seconds: 3600,
    });
    const [transaction] = ddb.commandCalls(TransactWriteCommand);
    expect(JSON.stringify(transaction!.args[0].input)).not.toContain(body.api_key);
    // The account moves to the new hash only while the caller's key is still its current one.
    expect(writeTo(ddb, accountKey('acc-user'))).toMatchObject({
      update: { apiKeyHash: hashApiKey(body.api_key), previousKeyHash: hashApiKey(USER_KEY) },
      conditionValues: [hashApiKey(USER_KEY)],
    });
    expect(writeTo(ddb, apiKeyKey(hashApiKey(USER_KEY))).update).toMatchObject({
      expires_at: '2026-11-22T11:00:00.000Z',
    });
    expect(writeTo(ddb, apiKeyKey(hashApiKey(body.api_key))).put).toMatchObject({
      accountId: 'acc-user',
      created_at: NOW.toISOString(),
    });
  });

  it('answers 400 for a grace period outside 0 to 24 hours, writing nothing', async () => {
    const tooLong = await rotate({ grace_period_seconds: 24 * 3600 + 1 });
    const missing = await rotate({});

    expect(jsonBody(tooLong)).toMatchObject({ statusCode: 400 });
    expect(jsonBody(tooLong).message).toEqual([expect.stringMatching(/^grace_period_seconds/)]);
    expect(jsonBody(missing)).toMatchObject({ statusCode: 400 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 409 key_rotation_conflict when another rotation moved the key at the same moment', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(accountKey('acc-user')));

    expect(jsonBody(await rotate({ grace_period_seconds: 0 }))).toMatchObject({
      statusCode: 409,
      code: 'key_rotation_conflict',
    });
  });
});
