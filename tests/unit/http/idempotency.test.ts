// The idempotency store (shared/http/idempotency.ts) against a mocked DynamoDB: what it writes, under which conditions,
// and what it answers for each record a refused claim returns. tests/integration/idempotency-records.test.ts runs the
// same store on DynamoDB Local.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../functions/routes.ts';
import { loadConfig } from '../../../shared/config.ts';
import { AppError, tooManyRequests } from '../../../shared/errors.ts';
import {
  idempotencyRecordId,
  idempotentResponse,
  REPLAYED_HEADER,
  requestHash,
} from '../../../shared/http/idempotency.ts';
import type { HttpResult } from '../../../shared/http/responses.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import {
  type CapturedRecord,
  completedVote,
  inProgressUpload,
  storedRefusal,
} from '../../support/powertools-idempotency-records.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const REMAINING_MS = 10_000;
const context = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => REMAINING_MS } as unknown as Context;
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(ddb);
const log = { info: vi.fn(), error: vi.fn(), child: () => log };
const deps = {
  ddb,
  config: loadConfig({ TABLE_NAME: 't', REQUESTS_TABLE_NAME: 'requests' }),
  now: () => NOW,
  log,
};
const vote = routes.find((r) => r.id === 'votes.create')!;
const scope = { accountId: 'acc-1', key: 'key-1', request: completedVote.request };
const created: HttpResult = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"v1"}' };
const refusal = (error: AppError): HttpResult => ({ statusCode: error.status, headers: {}, body: error.message });

const run = (respond: () => Promise<HttpResult>, s = scope) =>
  idempotentResponse(deps, vote, s, context, respond, refusal);
/** The failed claim of a request whose key `record` holds, as DynamoDB answers it (ALL_OLD). */
const heldBy = (record: CapturedRecord) => conditionalCheckFailed(unmarshall(record.item));
const scopeOf = (record: CapturedRecord) => ({
  accountId: record.accountId,
  key: record.key,
  request: record.request,
});

describe('the idempotency store', () => {
  beforeEach(() => {
    mock.reset();
    log.error.mockClear();
  });

  it('derives record ids and request hashes exactly as the Powertools utility did, for records it wrote', () => {
    for (const record of [completedVote, storedRefusal, inProgressUpload]) {
      expect(idempotencyRecordId({ id: record.routeId }, record.accountId, record.key)).toBe(record.item.id!.S);
      expect(requestHash(record.request), record.key).toBe(record.item.validation!.S);
    }
    // the hash is of the request, not of how its object was built: key order does not matter, values do
    const { body } = completedVote.request as { body: Record<string, unknown> };
    const reordered = { ...completedVote.request, body: Object.fromEntries(Object.entries(body).reverse()) };
    expect(requestHash(reordered)).toBe(completedVote.item.validation!.S);
    expect(requestHash({ ...completedVote.request, body: { ...body, value: 0 } })).not.toBe(
      completedVote.item.validation!.S,
    );
  });

  it('claims the key with one conditional PutItem, runs the route once and stores its answer while the claim is its own', async () => {
    mock.on(PutCommand).resolves({});
    mock.on(UpdateCommand).resolves({});
    const respond = vi.fn(async () => created);

    expect(await run(respond)).toEqual(created);

    expect(respond).toHaveBeenCalledTimes(1);
    const until = NOW.getTime() + REMAINING_MS;
    const expiration = NOW.getTime() / 1000 + 24 * 3600;
    const put = mock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put).toMatchObject({
      TableName: 'requests',
      Item: {
        id: idempotencyRecordId(vote, 'acc-1', 'key-1'),
        status: 'INPROGRESS',
        expiration,
        in_progress_expiration: until,
        validation: requestHash(scope.request),
      },
      ConditionExpression:
        'attribute_not_exists(id) OR expiration < :now OR (#status = :inProgress AND in_progress_expiration < :nowMs)',
      ExpressionAttributeValues: { ':now': NOW.getTime() / 1000, ':nowMs': NOW.getTime() },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const update = mock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update).toMatchObject({
      Key: { id: put.Item!.id },
      ConditionExpression: '#status = :inProgress AND in_progress_expiration = :until',
      UpdateExpression: 'SET #status = :completed, expiration = :expiration, #data = :data',
      ExpressionAttributeValues: {
        ':until': until,
        ':completed': 'COMPLETED',
        ':expiration': expiration,
        ':data': created,
      },
    });
    expect(mock.calls()).toHaveLength(2);
  });

  it('replays the stored answer the refused claim returns, with Idempotent-Replayed: no read, the route not run', async () => {
    mock.on(PutCommand).rejects(heldBy(completedVote));
    const respond = vi.fn(async () => created);

    const replayed = await run(respond, scopeOf(completedVote));

    expect(replayed).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json', [REPLAYED_HEADER]: 'true' },
      body: '{"id":"vote-fixture-1","image_id":"img-Zq9","value":1,"message":"SUCCESS"}',
    });
    expect(respond).not.toHaveBeenCalled();
    expect(mock.calls()).toHaveLength(1);
  });

  it('refuses the key with 422 for a different request, and with 409 and Retry-After while its holder runs', async () => {
    const respond = vi.fn(async () => created);
    mock.on(PutCommand).rejects(heldBy(completedVote));
    const other = { ...scopeOf(completedVote), request: storedRefusal.request };
    await expect(run(respond, other)).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });

    mock.on(PutCommand).rejects(heldBy(inProgressUpload));
    await expect(run(respond, scopeOf(inProgressUpload))).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_request_in_progress',
      headers: { 'retry-after': '1' },
    });
    // the request is checked first: a different one is 422 even while the key is in progress
    await expect(run(respond, { ...scopeOf(inProgressUpload), request: scope.request })).rejects.toMatchObject({
      status: 422,
    });
    expect(respond).not.toHaveBeenCalled();
  });

  it("stores the domain's refusal (a 4xx other than 429) as the answer: it performed nothing and would fail the same way", async () => {
    mock.on(PutCommand).resolves({});
    mock.on(UpdateCommand).resolves({});

    const answer = await run(async () => {
      throw new AppError(400, 'No image with id img1', { code: 'image_not_found' });
    });

    expect(answer).toEqual({ statusCode: 400, headers: {}, body: 'No image with id img1' });
    expect(mock.commandCalls(UpdateCommand)[0]!.args[0].input.ExpressionAttributeValues![':data']).toEqual(answer);
    expect(mock.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('gives the claim back while it is its own when the route fails in a way worth retrying, and rethrows the failure', async () => {
    for (const failure of [
      tooManyRequests('slow down', { retryAfterSeconds: 5 }),
      new AppError(503, 'busy', { code: 'busy' }),
      new Error('unexpected'),
    ]) {
      mock.reset();
      mock.on(PutCommand).resolves({});
      mock.on(DeleteCommand).resolves({});

      await expect(
        run(async () => {
          throw failure;
        }),
      ).rejects.toBe(failure);

      expect(mock.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
        Key: { id: idempotencyRecordId(vote, 'acc-1', 'key-1') },
        ConditionExpression: '#status = :inProgress AND in_progress_expiration = :until',
        ExpressionAttributeValues: { ':inProgress': 'INPROGRESS', ':until': NOW.getTime() + REMAINING_MS },
      });
      expect(mock.commandCalls(UpdateCommand)).toHaveLength(0);
    }
  });

  it("answers with the route's own result or failure when the record cannot be settled, and logs why", async () => {
    mock.on(PutCommand).resolves({});
    mock.on(UpdateCommand).rejectsOnce(conditionalCheckFailed()).rejectsOnce(new Error('throttled'));
    expect(await run(async () => created)).toEqual(created);
    expect(await run(async () => created)).toEqual(created);
    expect(log.error.mock.calls.map(([message]) => message)).toEqual([
      expect.stringMatching(/storing the answer of .* skipped: its claim lapsed and was taken/),
      expect.stringMatching(/storing the answer of .* skipped: the write failed/),
    ]);

    mock.on(DeleteCommand).rejects(new Error('throttled'));
    const failure = new AppError(503, 'busy');
    await expect(
      run(async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(log.error).toHaveBeenLastCalledWith(expect.stringMatching(/giving back .* skipped/), expect.anything());
  });

  it('fails loudly when a refused claim does not return the record that holds the key', async () => {
    mock.on(PutCommand).rejects(conditionalCheckFailed());
    await expect(run(async () => created)).rejects.toThrow(/without returning the record/);
  });
});
