// Idempotency-Key (shared/http/idempotency.ts, Powertools' utility) on DynamoDB Local: records the utility wrote before
// keep answering as they did (replay, 422, 409, and the lapse of their claim), records written now have their layout,
// and a claim whose invocation died lapses at its deadline without a late finisher overwriting or deleting the record
// of the request that took over. Powertools reads the system clock, so the tests set it.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { requestsTableName } from '../../scripts/local/stack.ts';
import { idempotentResponse, REPLAYED_HEADER } from '../../shared/http/idempotency.ts';
import type { HttpResult } from '../../shared/http/responses.ts';
import {
  CAPTURED_AT,
  type CapturedRecord,
  completedVote,
  inProgressUpload,
  REMAINING_MS,
  storedRefusal,
} from '../support/powertools-idempotency-records.ts';
import { depsOnLocalStack } from '../support/unreachable-store.ts';

const local = depsOnLocalStack({ REQUESTS_TABLE_NAME: requestsTableName(inject('localEnv').TABLE_NAME!) });
beforeAll(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterAll(() => {
  vi.useRealTimers();
  local.ddb.destroy();
});
const log = { info: vi.fn(), error: vi.fn(), child: () => log };
const deps = { ...local, log };
const TableName = local.config.requestsTableName!;

const routeOf = (id: string) => routes.find((r) => r.id === id)!;
const contextWith = (remainingMs: number) =>
  ({ awsRequestId: 'req', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;
const answer = (body: string): HttpResult => ({
  statusCode: 201,
  headers: { 'content-type': 'application/json' },
  body,
});
const notRefused = () => {
  throw new Error('the route refused nothing here');
};
/** Sends a request of `record`'s route, account and key (its own request unless another is given). */
const send = (record: CapturedRecord, respond: () => Promise<HttpResult>, request = record.request) =>
  idempotentResponse(
    deps,
    routeOf(record.routeId),
    { accountId: record.accountId, key: record.key, request },
    contextWith(10_000),
    respond,
    notRefused,
  );
/** Writes the record as the Powertools utility left it. */
const restore = async (record: CapturedRecord) => {
  await local.ddb.send(new PutCommand({ TableName, Item: unmarshall(record.item) }));
};
const read = async (id: string) =>
  (await local.ddb.send(new GetCommand({ TableName, Key: { id }, ConsistentRead: true }))).Item;

describe('records the Powertools idempotency utility wrote', () => {
  it('replay their stored answer, a success or a refusal, without running the route, and refuse another request (422)', async () => {
    await Promise.all([restore(completedVote), restore(storedRefusal)]);
    vi.setSystemTime(CAPTURED_AT + 3600_000);
    const respond = vi.fn(async () => answer('{}'));

    const replayed = await send(completedVote, respond);
    const refusal = await send(storedRefusal, respond);

    const stored = unmarshall(completedVote.item).data as HttpResult;
    expect(replayed).toEqual({ ...stored, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' } });
    expect(refusal).toMatchObject({ statusCode: 400, body: '{"statusCode":400,"code":"image_not_found"}' });
    await expect(send(completedVote, respond, storedRefusal.request)).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    });
    expect(respond).not.toHaveBeenCalled();
    expect(await read(completedVote.item.id!.S!)).toEqual(unmarshall(completedVote.item));
  });

  it('answer 409 while their claim runs, run the request once it lapsed, and store an answer of the same layout', async () => {
    await restore(inProgressUpload);
    const respond = vi.fn(async () => answer('{"id":"pet-1"}'));

    vi.setSystemTime(CAPTURED_AT + 5_000);
    await expect(send(inProgressUpload, respond)).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_request_in_progress',
    });
    vi.setSystemTime(CAPTURED_AT + REMAINING_MS + 1_000);
    const ran = await send(inProgressUpload, respond);
    const again = await send(inProgressUpload, respond);

    expect(ran).toEqual(answer('{"id":"pet-1"}'));
    expect(again).toMatchObject({ body: '{"id":"pet-1"}', headers: { [REPLAYED_HEADER]: 'true' } });
    expect(respond).toHaveBeenCalledTimes(1);
    // what it stored reads as the utility's own completed records do, attribute for attribute
    const written = (await read(inProgressUpload.item.id!.S!))!;
    const theirs = unmarshall(completedVote.item);
    expect(Object.keys(written).sort()).toEqual(Object.keys(theirs).sort());
    for (const name of Object.keys(theirs)) expect(typeof written[name], name).toBe(typeof theirs[name]);
    expect(written).toMatchObject({
      status: 'COMPLETED',
      validation: inProgressUpload.item.validation!.S,
      expiration: Math.round(Date.now() / 1000 + 24 * 3600),
      data: ran,
    });
  });
});

describe('a claim whose invocation died', () => {
  const route = routeOf('votes.create');
  const freshScope = () => ({
    accountId: `acc-${randomUUID()}`,
    key: randomUUID(),
    request: { params: {}, query: {}, body: { image_id: 'img1', value: 1 }, form: undefined },
  });
  const attempt = (scope: ReturnType<typeof freshScope>, remainingMs: number, respond: () => Promise<HttpResult>) =>
    idempotentResponse(deps, route, scope, contextWith(remainingMs), respond, notRefused);
  /** While the first attempt (2 s to live) holds the key: a repeat is 409 until its deadline, then the third runs. */
  const takeOver = async (scope: ReturnType<typeof freshScope>) => {
    await expect(attempt(scope, 10_000, async () => answer('"second"'))).rejects.toMatchObject({ status: 409 });
    vi.setSystemTime(Date.now() + 2_001);
    expect(await attempt(scope, 10_000, async () => answer('"third"'))).toEqual(answer('"third"'));
  };

  it('lapses at its deadline; the next request runs, and the late finisher does not overwrite its answer', async () => {
    vi.setSystemTime(new Date());
    log.error.mockClear();
    const scope = freshScope();

    const first = await attempt(scope, 2_000, async () => {
      await takeOver(scope);
      return answer('"first, too late"');
    });

    expect(first).toEqual(answer('"first, too late"'));
    const replay = await attempt(scope, 10_000, async () => answer('"fourth"'));
    expect(replay).toMatchObject({ body: '"third"', headers: { [REPLAYED_HEADER]: 'true' } });
    expect(log.error).toHaveBeenCalledWith(
      expect.stringContaining('its claim lapsed and was taken'),
      expect.anything(),
    );
  });

  it('lapses at its deadline; a late failure of the first does not give back the record of the request that took over', async () => {
    vi.setSystemTime(new Date());
    log.error.mockClear();
    const scope = freshScope();
    const failure = new Error('the first attempt failed after its deadline');

    await expect(
      attempt(scope, 2_000, async () => {
        await takeOver(scope);
        throw failure;
      }),
    ).rejects.toBe(failure);

    const replay = await attempt(scope, 10_000, async () => answer('"fourth"'));
    expect(replay).toMatchObject({ body: '"third"', headers: { [REPLAYED_HEADER]: 'true' } });
    expect(log.error).toHaveBeenCalledWith(
      expect.stringMatching(/giving back .* skipped: its claim lapsed and was taken/),
      expect.anything(),
    );
  });
});
