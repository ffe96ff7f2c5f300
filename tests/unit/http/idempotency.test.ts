// Idempotency-Key (shared/http/idempotency.ts, Powertools' utility) against a mocked DynamoDB: what it writes and what
// it answers for each record a refused claim returns. tests/integration/idempotency-records.test.ts runs it on
// DynamoDB Local, where the conditions are checked for real.
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../functions/routes.ts';
import { loadConfig } from '../../../shared/config.ts';
import { AppError, tooManyRequests } from '../../../shared/errors.ts';
import { idempotentResponse, REPLAYED_HEADER, type RequestFingerprint } from '../../../shared/http/idempotency.ts';
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
const deps = { ddb, config: loadConfig({ TABLE_NAME: 't', REQUESTS_TABLE_NAME: 'requests' }), log };
const routeOf = (id: string) => routes.find((r) => r.id === id)!;
const scope = { accountId: 'acc-1', key: 'key-1', request: completedVote.request };
const created: HttpResult = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"v1"}' };
const refusal = (error: AppError): HttpResult => ({ statusCode: error.status, headers: {}, body: error.message });

const run = (respond: () => Promise<HttpResult>, s = scope, routeId = 'votes.create') =>
  idempotentResponse(deps, routeOf(routeId), s, context, respond, refusal);
/** The failed claim of a request whose key `record` holds, as DynamoDB answers it (ALL_OLD). */
const heldBy = (record: CapturedRecord) => conditionalCheckFailed(unmarshall(record.item));
const scopeOf = (record: CapturedRecord, request: RequestFingerprint = record.request) => ({
  accountId: record.accountId,
  key: record.key,
  request,
});
/** The record the claim wrote, as the table would hold it. */
const claimed = (call = 0) => unmarshall(mock.commandCalls(PutItemCommand)[call]!.args[0].input.Item!);

describe('Idempotency-Key on the Powertools utility', () => {
  beforeEach(() => {
    mock.reset();
    log.error.mockClear();
    // Powertools reads the system clock
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  });
  afterEach(() => vi.useRealTimers());

  it('writes the record ids and request hashes of the records the utility wrote before', async () => {
    mock.on(PutItemCommand).resolves({});
    mock.on(UpdateCommand).resolves({});
    for (const record of [completedVote, storedRefusal, inProgressUpload]) {
      mock.resetHistory();
      await run(async () => created, scopeOf(record), record.routeId);
      expect(claimed(), record.key).toMatchObject({
        id: record.item.id!.S,
        validation: record.item.validation!.S,
      });
    }
    // the hash is of the request, not of how its object was built: key order does not matter, values do
    const { body } = completedVote.request as { body: Record<string, unknown> };
    const reordered = { ...completedVote.request, body: Object.fromEntries(Object.entries(body).reverse()) };
    const changed = { ...completedVote.request, body: { ...body, value: 0 } };
    mock.resetHistory();
    await run(async () => created, scopeOf(completedVote, reordered));
    await run(async () => created, scopeOf(completedVote, changed));
    expect(claimed(0).validation).toBe(completedVote.item.validation!.S);
    expect(claimed(1).validation).not.toBe(completedVote.item.validation!.S);
  });

  it("claims the key until the invocation's deadline, runs the route once and stores its answer for 24 hours", async () => {
    mock.on(PutItemCommand).resolves({});
    mock.on(UpdateCommand).resolves({});
    const respond = vi.fn(async () => created);

    expect(await run(respond)).toEqual(created);

    expect(respond).toHaveBeenCalledTimes(1);
    const expiration = NOW.getTime() / 1000 + 24 * 3600;
    expect(claimed()).toMatchObject({
      status: 'INPROGRESS',
      expiration,
      in_progress_expiration: NOW.getTime() + REMAINING_MS,
    });
    expect(mock.commandCalls(PutItemCommand)[0]!.args[0].input.TableName).toBe('requests');
    const stored = mock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(stored.Key).toEqual({ id: claimed().id });
    expect(Object.values(stored.ExpressionAttributeValues!)).toEqual(
      expect.arrayContaining(['COMPLETED', expiration, created]),
    );
    expect(mock.calls()).toHaveLength(2);
  });

  it('replays the stored answer the refused claim returns, with Idempotent-Replayed: no read, the route not run', async () => {
    mock.on(PutItemCommand).rejects(heldBy(completedVote));
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

  it('reads the record when a refused claim does not return it', async () => {
    mock.on(PutItemCommand).rejects(conditionalCheckFailed());
    mock.on(GetItemCommand).resolves({ Item: completedVote.item });

    const replayed = await run(async () => created, scopeOf(completedVote));

    expect(replayed).toMatchObject({ statusCode: 200, headers: { [REPLAYED_HEADER]: 'true' } });
    expect(mock.commandCalls(GetItemCommand)[0]!.args[0].input).toMatchObject({
      Key: marshall({ id: completedVote.item.id!.S }),
      ConsistentRead: true,
    });
  });

  it('refuses the key with 422 for a different request, and with 409 and Retry-After while its holder runs', async () => {
    const respond = vi.fn(async () => created);
    mock.on(PutItemCommand).rejects(heldBy(completedVote));
    await expect(run(respond, scopeOf(completedVote, storedRefusal.request))).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    });

    mock.on(PutItemCommand).rejects(heldBy(inProgressUpload));
    const upload = (request = inProgressUpload.request) =>
      run(respond, scopeOf(inProgressUpload, request), inProgressUpload.routeId);
    await expect(upload()).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_request_in_progress',
      headers: { 'retry-after': '1' },
    });
    // the request is checked first: a different one is 422 even while the key is in progress
    await expect(upload(scope.request)).rejects.toMatchObject({ status: 422 });
    expect(respond).not.toHaveBeenCalled();
  });

  it("stores the domain's refusal (a 4xx other than 429) as the answer: it performed nothing and would fail the same way", async () => {
    mock.on(PutItemCommand).resolves({});
    mock.on(UpdateCommand).resolves({});

    const answer = await run(async () => {
      throw new AppError(400, 'No image with id img1', { code: 'image_not_found' });
    });

    expect(answer).toEqual({ statusCode: 400, headers: {}, body: 'No image with id img1' });
    expect(Object.values(mock.commandCalls(UpdateCommand)[0]!.args[0].input.ExpressionAttributeValues!)).toContainEqual(
      answer,
    );
    expect(mock.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('gives the claim back when the route fails in a way worth retrying, and rethrows the failure', async () => {
    for (const failure of [
      tooManyRequests('slow down', { retryAfterSeconds: 5 }),
      new AppError(503, 'busy', { code: 'busy' }),
      new Error('unexpected'),
    ]) {
      mock.reset();
      mock.on(PutItemCommand).resolves({});
      mock.on(DeleteCommand).resolves({});

      await expect(
        run(async () => {
          throw failure;
        }),
      ).rejects.toBe(failure);

      expect(mock.commandCalls(DeleteCommand)[0]!.args[0].input.Key).toEqual({ id: claimed().id });
      expect(mock.commandCalls(UpdateCommand)).toHaveLength(0);
    }
  });

  it("answers with the route's own result or failure when the record cannot be settled, and logs why", async () => {
    mock.on(PutItemCommand).resolves({});
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
});
