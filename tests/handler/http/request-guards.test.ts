import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as createVote } from '../../../functions/votes/create-vote.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { PLANS } from '../../../shared/domain/accounts/plans.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';

// 10:00:45 into a one-minute window: 15 s until it resets.
const NOW = new Date('2026-11-22T10:00:45.000Z');
const WINDOW_START = Date.parse('2026-11-22T10:00:00.000Z');
let ddb: ReturnType<typeof mockDynamoWithAccounts>;

const post = (headers: Record<string, string> = {}) =>
  createVote(
    httpEvent({
      method: 'POST',
      path: '/v1/votes',
      headers: { 'x-api-key': USER_KEY, ...headers },
      body: { image_id: 'img1', value: 1 },
    }),
    lambdaContext,
  );

describe('the request guards of the pipeline', () => {
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#img1' } } as never)
      .resolves({ Item: { pk: 'IMAGE#img1', id: 'img1', species_id: 'dog', breed_ids: [] } });
    ddb.on(UpdateCommand, { Key: { pk: 'COUNTER' } } as never).resolves({ Attributes: { seq: 7 } });
    ddb.on(TransactWriteCommand).resolves({});
    setDepsForTest({ now: () => NOW });
  });

  it("takes one request from the account's current window with a conditional counter update and says what is left", async () => {
    const { limit } = PLANS.standard.writes;
    ddb.on(UpdateCommand, { TableName: 'test-requests' }).resolves({ Attributes: { used: 42 } });

    const result = await post();

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(limit - 42),
      'ratelimit-reset': '15',
      'ratelimit-policy': `${limit};w=60`,
    });
    // One more in this window, only while under the plan's limit (a refusal is the 429 below).
    expect(writeTo(ddb, { id: `RATE#acc-user#writes#${WINDOW_START}` }, 'test-requests')).toMatchObject({
      update: { used: { add: 1 } },
      conditionValues: [limit],
    });
  });

  it('answers 429 in the spec error shape with Retry-After and RateLimit headers once the window is used up, before any work', async () => {
    ddb.on(UpdateCommand, { TableName: 'test-requests' }).rejects(conditionalCheckFailed());

    const result = await post({ 'content-type': 'application/json' });

    expect(result.statusCode).toBe(429);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      path: '/v1/votes',
      code: 'rate_limit_exceeded',
      plan: 'standard',
      rate_class: 'writes',
      limit: PLANS.standard.writes.limit,
      window_seconds: 60,
    });
    expect(result.headers).toMatchObject({ 'retry-after': '15', 'ratelimit-remaining': '0', 'ratelimit-reset': '15' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('refuses an Idempotency-Key that is empty, longer than 255 characters or not visible ASCII, before any work', async () => {
    for (const key of ['', 'k'.repeat(256), 'tab\there', 'é']) {
      const result = await post({ 'idempotency-key': key });
      expect(jsonBody(result), JSON.stringify(key)).toMatchObject({
        statusCode: 400,
        code: 'invalid_idempotency_key',
      });
    }
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('runs a keyed write once and stores its answer; a repeat gets it replayed with Idempotent-Replayed, performing nothing', async () => {
    ddb.on(PutItemCommand, { TableName: 'test-requests' }).resolves({});

    const first = await post({ 'idempotency-key': 'key-1' });

    expect(first.statusCode).toBe(200);
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
    const claim = unmarshall(ddb.commandCalls(PutItemCommand, { TableName: 'test-requests' })[0]!.args[0].input.Item!);
    const store = ddb
      .commandCalls(UpdateCommand, { TableName: 'test-requests' })
      .map((call) => call.args[0].input)
      .find((input) => input.Key?.id === claim.id)!;
    const stored = Object.values(store.ExpressionAttributeValues!).find((value) => value?.statusCode);
    expect(stored).toMatchObject({ statusCode: 200, body: first.body });

    // the repeat's claim is refused with the record as it now stands (ALL_OLD)
    ddb
      .on(PutItemCommand, { TableName: 'test-requests' })
      .rejects(conditionalCheckFailed({ ...claim, status: 'COMPLETED', data: stored }));
    const again = await post({ 'idempotency-key': 'key-1' });

    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers).toMatchObject({ 'idempotent-replayed': 'true', 'ratelimit-remaining': expect.any(String) });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});
