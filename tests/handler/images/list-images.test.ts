import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/list-images.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredUpload, asUser } from './image-fixtures.ts';

/** DynamoDB answers at most this many items per Query page here, so lists span pages. */
const ITEMS_PER_PAGE = 5;

/** The account-images index as DynamoDB serves it: ordered by gsi1sk, in pages, the sub_id filter applied per page. */
function serveAccountImages(ddb: ReturnType<typeof mockDynamoWithAccounts>, items: Record<string, any>[]) {
  ddb.on(QueryCommand, { IndexName: 'gsi1' } as never).callsFake((input) => {
    const values = input.ExpressionAttributeValues;
    const ordered = items
      .filter((i) => i.gsi1pk === values[':partition'])
      .sort((a, b) => a.gsi1sk.localeCompare(b.gsi1sk));
    if (input.ScanIndexForward === false) ordered.reverse();
    const start = input.ExclusiveStartKey ? ordered.findIndex((i) => i.pk === input.ExclusiveStartKey.pk) + 1 : 0;
    const read = ordered.slice(start, start + ITEMS_PER_PAGE);
    return {
      Items: read.filter((i) => values[':sub'] === undefined || i.sub_id === values[':sub']),
      ...(start + ITEMS_PER_PAGE < ordered.length && { LastEvaluatedKey: { pk: read.at(-1)!.pk, sk: 'IMAGE' } }),
    };
  });
}

const twelveUploads = Array.from({ length: 12 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return aStoredUpload({
    id: `img-${n}`,
    sub_id: ['02', '05', '09'].includes(n) ? 'user-7' : null,
    created_at: `2026-11-${n}T10:00:00.000Z`,
  });
});
const list = (query?: Record<string, string>) => asUser(handler, { path: '/v1/images', ...(query && { query }) });
const ids = (result: unknown) => jsonBody(result).map((i: { id: string }) => i.id);

describe('GET /v1/images', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveAccountImages(ddb, [...twelveUploads, aStoredUpload({ id: 'img-99', account_id: 'acc-other' })]);
  });
  const queries = () => ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);

  it("lists the caller's own uploads newest first, 10 by default, reading no more pages than it needs", async () => {
    const result = await list();

    expect(result.statusCode).toBe(200);
    expect(ids(result)).toEqual([
      'img-12',
      'img-11',
      'img-10',
      'img-09',
      'img-08',
      'img-07',
      'img-06',
      'img-05',
      'img-04',
      'img-03',
    ]);
    expect(queries()).toHaveLength(2);
    expect(queries()[0]).toMatchObject({
      IndexName: 'gsi1',
      ExpressionAttributeValues: { ':partition': 'ACCOUNT#acc-user#IMAGES' },
      ScanIndexForward: false,
    });
  });

  it('presents each upload with its media URL and never the table keys or the owning account', async () => {
    const [newest] = jsonBody(await list({ limit: '1' }));

    expect(newest).toMatchObject({ id: 'img-12', url: expect.stringMatching(/\/images\/acc-user\/img-12\.jpg$/) });
    for (const internal of ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'account_id', 'file', 'source'])
      expect(newest).not.toHaveProperty(internal);
  });

  it('pages oldest first with order=asc (any case) and a zero-based page', async () => {
    expect(ids(await list({ order: 'asc', limit: '5', page: '1' }))).toEqual([
      'img-06',
      'img-07',
      'img-08',
      'img-09',
      'img-10',
    ]);
    expect(ids(await list({ order: 'ASC', limit: '5', page: '3' }))).toEqual([]);
  });

  it('narrows to one sub_id, filtered by DynamoDB across pages', async () => {
    const result = await list({ sub_id: 'user-7' });

    expect(ids(result)).toEqual(['img-09', 'img-05', 'img-02']);
    expect(queries()[0]).toMatchObject({
      FilterExpression: '#sub = :sub',
      ExpressionAttributeValues: { ':partition': 'ACCOUNT#acc-user#IMAGES', ':sub': 'user-7' },
    });
  });

  it('samples among all the uploads with order=RANDOM, using the injected random source', async () => {
    setDepsForTest({ random: () => 0 });

    // Shuffling with random() = 0 moves the first item to the end: img-02, img-03, … img-12, img-01.
    expect(ids(await list({ order: 'RANDOM', limit: '3' }))).toEqual(['img-02', 'img-03', 'img-04']);
    expect(queries()).toHaveLength(3);
  });

  it('answers an empty list for an account without uploads', async () => {
    serveAccountImages(ddb, []);

    const result = await list();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual([]);
  });

  it.each([
    [{ limit: '0' }, 'limit must be at least 1'],
    [{ limit: '101' }, 'limit must be at most 100'],
    [{ order: 'newest' }, 'order must be one of: ASC, DESC, RANDOM'],
    [{ page: '-1' }, 'page must be at least 0'],
    [
      { sub_id: 'jane@example.com' },
      'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
    ],
    [{ breed_id: 'beagle' }, "unknown query parameter 'breed_id'"],
  ])('rejects %o with 400 before reading the table', async (query, message) => {
    const result = await list(query);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([message]);
    expect(queries()).toHaveLength(0);
  });
});
