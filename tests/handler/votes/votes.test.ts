import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as createVote } from '../../../functions/votes/create-vote.ts';
import { handler as deleteVote } from '../../../functions/votes/delete-vote.ts';
import { handler as getVote } from '../../../functions/votes/get-vote.ts';
import { handler as listVotes } from '../../../functions/votes/list-votes.ts';
import { issueToken } from '../../../shared/auth/tokens.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { anAccount, mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { serveReferenceData } from '../../support/reference-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { transactionWrites, writeTo } from '../../support/dynamo-writes.ts';
import { accountStatsKey, imageKey, interactionKey, voteKey } from '../../../shared/db/keys.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const OFF_KEY = 'live_votes-off';
let ddb: ReturnType<typeof mockDynamoWithAccounts>;
const bearer = async (accountId = 'acc-user') =>
  `Bearer ${(await issueToken(new TextEncoder().encode(process.env.TOKEN_SECRET!), accountId, new Date(), 3600)).access_token}`;
const post = (body: unknown, headers: Record<string, string> = {}) =>
  createVote(
    httpEvent({
      method: 'POST',
      path: '/v1/votes',
      headers: { 'x-api-key': USER_KEY, 'content-type': 'application/json', ...headers },
      body,
    }),
    lambdaContext,
  );
const voteItem = (overrides: Record<string, unknown> = {}) => ({
  pk: 'VOTE#000000000007',
  id: 7,
  account_id: 'acc-user',
  image_id: 'img1',
  sub_id: 'u-1',
  value: 1,
  country_code: null,
  created_at: NOW.toISOString(),
  ...overrides,
});

describe('votes', () => {
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([
      ...standardAccounts(),
      { apiKey: OFF_KEY, account: anAccount({ id: 'acc-off', disabled_capabilities: ['votes'] }) },
    ]);
    serveReferenceData(ddb, {});
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#img1' } } as never)
      .resolves({ Item: { pk: 'IMAGE#img1', id: 'img1', species_id: 'dog', breed_ids: ['beagle'] } });
    ddb.on(UpdateCommand, { Key: { pk: 'COUNTER' } } as never).resolves({ Attributes: { seq: 7 } });
    ddb.on(TransactWriteCommand).resolves({});
    setDepsForTest({ now: () => NOW });
  });

  it('records a vote with a numeric id and answers 200 with it', async () => {
    const result = await post({ image_id: 'img1', value: 1, sub_id: 'u-1' }, { 'cloudfront-viewer-country': 'de' });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      id: 7,
      image_id: 'img1',
      sub_id: 'u-1',
      value: 1,
      country_code: 'DE',
      created_at: NOW.toISOString(),
    });
  });

  it('writes the vote, the account count and the interaction entry in one transaction that checks the image', async () => {
    await post({ image_id: 'img1', value: 0 });

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, imageKey('img1'))).toMatchObject({ check: true, conditional: true });
    expect(writeTo(ddb, voteKey(7))).toMatchObject({
      put: { gsi1pk: 'ACCOUNT#acc-user#VOTES', value: 0 },
      conditional: true,
    });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ votes: { add: 1 } });
    expect(writeTo(ddb, interactionKey('acc-user', null, 'img1')).update).toMatchObject({ vote: { id: 7, value: 0 } });
  });

  it.each([
    [{ image_id: 'img1', value: 2 }, 'value must be one of: 0, 1'],
    [{ image_id: 'img1', value: '1' }, 'value must be one of: 0, 1'],
    [{ value: 1 }, 'image_id is required'],
    [
      { image_id: 'img1', value: 1, sub_id: 'me@example.com' },
      'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
    ],
    [{ image_id: 'img1', value: 1, extra: true }, "unknown field 'extra'"],
  ])('rejects %o with 400 and writes nothing', async (body, message) => {
    const result = await post(body);

    expect(jsonBody(result)).toMatchObject({ statusCode: 400, message: [message] });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 400 for an image that does not exist, before allocating an id', async () => {
    const result = await post({ image_id: 'ghost', value: 1 });

    expect(jsonBody(result)).toMatchObject({ statusCode: 400, code: 'image_not_found' });
    expect(ddb.commandCalls(UpdateCommand, { Key: { pk: 'COUNTER', sk: 'VOTE' } })).toHaveLength(0);
  });

  it('names a missing image together with the problems of the other fields, in one 400', async () => {
    const result = await post({ image_id: 'ghost', value: 7, sub_id: 'me@example.com' });

    expect(jsonBody(result)).toMatchObject({
      statusCode: 400,
      message: [
        'value must be one of: 0, 1',
        'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
        'image_id ghost does not exist',
      ],
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 403 when an administrator switched votes off for the account', async () => {
    const result = await post({ image_id: 'img1', value: 1 }, { 'x-api-key': OFF_KEY });

    expect(jsonBody(result)).toMatchObject({ statusCode: 403, code: 'capability_disabled' });
  });

  it("looks up a vote with a bearer token, 403 for another account's and 404 for a missing one", async () => {
    ddb.on(GetCommand, { Key: { pk: 'VOTE#000000000007' } } as never).resolves({ Item: voteItem() });
    ddb
      .on(GetCommand, { Key: { pk: 'VOTE#000000000008' } } as never)
      .resolves({ Item: voteItem({ id: 8, account_id: 'acc-admin' }) });
    const get = async (id: string) =>
      getVote(
        httpEvent({
          path: `/v1/votes/${id}`,
          pathParameters: { vote_id: id },
          headers: { authorization: await bearer() },
        }),
        lambdaContext,
      );

    expect(jsonBody(await get('7'))).toMatchObject({ id: 7, value: 1 });
    expect((await get('8')).statusCode).toBe(403);
    expect((await get('9')).statusCode).toBe(404);
    expect(jsonBody(await get('abc')).message).toEqual(['vote_id must be an integer']);
  });

  it('refuses an API key where the spec asks for a bearer token', async () => {
    const result = await getVote(
      httpEvent({ path: '/v1/votes/7', pathParameters: { vote_id: '7' }, headers: { 'x-api-key': USER_KEY } }),
      lambdaContext,
    );

    expect(jsonBody(result)).toMatchObject({ statusCode: 403, code: 'missing_credentials' });
  });

  it("lists the caller's votes in id order, filtered by sub_id in DynamoDB", async () => {
    ddb
      .on(QueryCommand, { IndexName: 'gsi1' } as never)
      .resolves({ Items: [voteItem(), voteItem({ id: 9, pk: 'VOTE#000000000009' })] });

    const result = await listVotes(
      httpEvent({
        path: '/v1/votes',
        query: { sub_id: 'u-1', order: 'DESC' },
        headers: { authorization: await bearer() },
      }),
      lambdaContext,
    );

    expect(jsonBody(result).map((v: { id: number }) => v.id)).toEqual([7, 9]);
    const input = ddb.commandCalls(QueryCommand).find((c) => c.args[0].input.IndexName === 'gsi1')!.args[0].input;
    expect(input).toMatchObject({
      ExpressionAttributeValues: { ':partition': 'ACCOUNT#acc-user#VOTES', ':sub': 'u-1' },
      ScanIndexForward: false,
    });
  });

  it("deletes the caller's vote with its count, and 404s a vote deleted meanwhile", async () => {
    ddb.on(GetCommand, { Key: { pk: 'VOTE#000000000007' } } as never).resolves({ Item: voteItem() });
    const del = () =>
      deleteVote(
        httpEvent({
          method: 'DELETE',
          path: '/v1/votes/7',
          pathParameters: { vote_id: '7' },
          headers: { 'x-api-key': USER_KEY },
        }),
        lambdaContext,
      );

    expect(jsonBody(await del())).toEqual({ message: 'SUCCESS' });
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(voteKey(7)));
    expect((await del()).statusCode).toBe(404);
  });

  it('keeps the interaction entry when a newer vote replaced it', async () => {
    ddb.on(GetCommand, { Key: { pk: 'VOTE#000000000007' } } as never).resolves({ Item: voteItem() });
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(conditionFailsOn(interactionKey('acc-user', 'u-1', 'img1')))
      .resolves({});

    const result = await deleteVote(
      httpEvent({
        method: 'DELETE',
        path: '/v1/votes/7',
        pathParameters: { vote_id: '7' },
        headers: { 'x-api-key': USER_KEY },
      }),
      lambdaContext,
    );

    expect(result.statusCode).toBe(200);
    // Again without the entry, which a newer vote owns: the vote and the count only.
    const [, retry] = ddb.commandCalls(TransactWriteCommand);
    const retried = transactionWrites(retry!.args[0].input).map((write) => write.key);
    expect(retried).toHaveLength(2);
    expect(retried).toEqual(expect.arrayContaining([voteKey(7), accountStatsKey('acc-user')]));
  });

  describe('hostile sub_id values', () => {
    const MEGABYTE = 1024 * 1024;
    /**
     * How many times a pattern with a quantifier (one that can backtrack) ran over `value` itself while `run` ran;
     * zod's code-point counter (a single character class) is linear and not counted.
     */
    async function patternCallsOn(value: string, run: () => Promise<unknown>): Promise<number> {
      const test = vi.spyOn(RegExp.prototype, 'test');
      const exec = vi.spyOn(RegExp.prototype, 'exec');
      const quantified = (pattern: RegExp) => /[+*?{]/.test(pattern.source);
      try {
        await run();
        const calls = [...test.mock.calls.map((c, i) => [c[0], test.mock.contexts[i]] as const)];
        calls.push(...exec.mock.calls.map((c, i) => [c[0], exec.mock.contexts[i]] as const));
        return calls.filter(([input, pattern]) => input === value && quantified(pattern as RegExp)).length;
      } finally {
        test.mockRestore();
        exec.mockRestore();
      }
    }

    it('refuses a 1 MB sub_id in the query on length, before any pattern sees it', async () => {
      const subId = 'a'.repeat(MEGABYTE);
      const headers = { authorization: await bearer() };
      let result: unknown;
      const calls = await patternCallsOn(subId, async () => {
        result = await listVotes(httpEvent({ path: '/v1/votes', query: { sub_id: subId }, headers }), lambdaContext);
      });

      expect(jsonBody(result)).toMatchObject({
        statusCode: 400,
        message: ['sub_id must be at most 255 characters long'],
      });
      expect(calls).toBe(0);
    });

    it('refuses a 1 MB JSON body with 413 before parsing it, and a long sub_id within the cap with 400', async () => {
      const huge = await post({ image_id: 'img1', value: 1, sub_id: 'a'.repeat(MEGABYTE) });
      expect(jsonBody(huge)).toMatchObject({ statusCode: 413, code: 'body_too_large', limit_bytes: 65536 });

      const subId = 'a'.repeat(60_000);
      let result: unknown;
      const calls = await patternCallsOn(subId, async () => {
        result = await post({ image_id: 'img1', value: 1, sub_id: subId });
      });
      expect(jsonBody(result)).toMatchObject({
        statusCode: 400,
        message: ['sub_id must be at most 255 characters long'],
      });
      expect(calls).toBe(0);
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    });

    it('refuses U+FFFF, control characters and unpaired surrogates in a sub_id, and accepts an emoji', async () => {
      for (const subId of ['user-\uFFFF', 'user\u0000', 'user-\uD800']) {
        const result = await post({ image_id: 'img1', value: 1, sub_id: subId });
        expect(jsonBody(result)).toMatchObject({
          statusCode: 400,
          message: [
            'sub_id must not contain control characters, noncharacters (such as U+FFFF) or unpaired surrogates',
          ],
        });
      }
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);

      const emoji = await post({ image_id: 'img1', value: 1, sub_id: 'dog-lover-\u{1F436}' });
      expect(emoji.statusCode).toBe(200);
    });

    it('still refuses an e-mail address inside a sub_id', async () => {
      const result = await post({ image_id: 'img1', value: 1, sub_id: 'user jane.doe@example.com' });
      expect(jsonBody(result)).toMatchObject({ statusCode: 400, message: [expect.stringContaining('not an e-mail')] });
    });
  });
});
