import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as createFavourite } from '../../../functions/favourites/create-favourite.ts';
import { handler as deleteFavourite } from '../../../functions/favourites/delete-favourite.ts';
import { handler as getFavourite } from '../../../functions/favourites/get-favourite.ts';
import { handler as listFavourites } from '../../../functions/favourites/list-favourites.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { ADMIN_KEY, mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { serveReferenceData } from '../../support/reference-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { accountStatsKey, favouriteKey, interactionKey } from '../../../shared/db/keys.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
let ddb: ReturnType<typeof mockDynamoWithAccounts>;
const favItem = (overrides: Record<string, unknown> = {}) => ({
  pk: 'FAV#f1',
  id: 'f1',
  account_id: 'acc-user',
  image_id: 'img1',
  sub_id: null,
  created_at: NOW.toISOString(),
  ...overrides,
});
const call = (handler: (e: any, c: any) => Promise<any>, input: Parameters<typeof httpEvent>[0], key = USER_KEY) =>
  handler(
    httpEvent({
      ...input,
      headers: { 'x-api-key': key, ...(input.body !== undefined && { 'content-type': 'application/json' }) },
    }),
    lambdaContext,
  );

describe('favourites', () => {
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveReferenceData(ddb, {});
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#img1' } } as never)
      .resolves({ Item: { pk: 'IMAGE#img1', id: 'img1', species_id: 'cat', breed_ids: [] } });
    ddb.on(GetCommand, { Key: { pk: 'FAV#f1' } } as never).resolves({ Item: favItem() });
    ddb.on(TransactWriteCommand).resolves({});
    setDepsForTest({ now: () => NOW, newId: () => 'f-new' });
  });

  it('creates a favourite, unique per account, sub_id and image through a conditional interaction entry', async () => {
    const result = await call(createFavourite, {
      method: 'POST',
      path: '/v1/favourites',
      body: { image_id: 'img1', sub_id: 'u-9' },
    });

    expect(jsonBody(result)).toEqual({
      id: 'f-new',
      account_id: 'acc-user',
      image_id: 'img1',
      sub_id: 'u-9',
      created_at: NOW.toISOString(),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, interactionKey('acc-user', 'u-9', 'img1'))).toMatchObject({
      update: { favourite: { id: 'f-new', created_at: NOW.toISOString() } },
      conditional: true,
    });
    expect(writeTo(ddb, favouriteKey('f-new')).put).toMatchObject({ id: 'f-new', image_id: 'img1', sub_id: 'u-9' });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ favourites: { add: 1 } });
  });

  it('answers 409 naming the existing favourite for a duplicate', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(interactionKey('acc-user', null, 'img1')));
    ddb.on(GetCommand, { Key: { pk: 'SUBIMG#acc-user#' } } as never).resolves({ Item: { favourite: { id: 'f-old' } } });

    const result = await call(createFavourite, { method: 'POST', path: '/v1/favourites', body: { image_id: 'img1' } });

    expect(jsonBody(result)).toMatchObject({ statusCode: 409, code: 'favourite_exists', favourite_id: 'f-old' });
  });

  it('answers 400 for a missing image and for a bad body', async () => {
    expect(
      jsonBody(await call(createFavourite, { method: 'POST', path: '/v1/favourites', body: { image_id: 'ghost' } })),
    ).toMatchObject({ statusCode: 400, code: 'image_not_found' });
    expect(
      jsonBody(await call(createFavourite, { method: 'POST', path: '/v1/favourites', body: { image_id: 5 } })).message,
    ).toEqual(['image_id must be a string']);
  });

  it("gets the caller's favourite; another account's is 403, a deleted one 404", async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'FAV#f2' } } as never)
      .resolves({ Item: favItem({ id: 'f2', account_id: 'acc-admin' }) });
    ddb
      .on(GetCommand, { Key: { pk: 'FAV#f3' } } as never)
      .resolves({ Item: favItem({ id: 'f3', deleted_at: NOW.toISOString() }) });
    const get = (id: string) => call(getFavourite, { path: `/v1/favourites/${id}`, pathParameters: { id } });

    expect(jsonBody(await get('f1'))).toMatchObject({ id: 'f1' });
    expect((await get('f2')).statusCode).toBe(403);
    expect((await get('f3')).statusCode).toBe(404);
  });

  it('deletes softly and answers a confirmation message', async () => {
    const result = await call(deleteFavourite, {
      method: 'DELETE',
      path: '/v1/favourites/f1',
      pathParameters: { id: 'f1' },
    });

    expect(jsonBody(result)).toEqual({ message: 'SUCCESS' });
    expect(writeTo(ddb, favouriteKey('f1')).update).toEqual({ deleted_at: NOW.toISOString() });
    expect(writeTo(ddb, interactionKey('acc-user', null, 'img1')).update).toEqual({ favourite: { removed: true } });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ favourites: { add: -1 } });
  });

  it('lists live favourites by default and deleted ones on request, with images attached on request', async () => {
    ddb.on(QueryCommand, { IndexName: 'gsi1' } as never).resolves({ Items: [favItem()] });
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        'test-table': [{ id: 'img1', file: 'catalogue/img1.jpg', width: 10, height: 20, species_id: 'cat' }],
      },
    });

    const plain = await call(listFavourites, { path: '/v1/favourites' });
    const withImage = await call(listFavourites, {
      path: '/v1/favourites',
      query: { is_deleted: 'true', attach_image: 'true' },
    });

    const [first, second] = ddb.commandCalls(QueryCommand).filter((c) => c.args[0].input.IndexName === 'gsi1');
    expect(first!.args[0].input.FilterExpression).toContain('attribute_not_exists(#deleted)');
    expect(second!.args[0].input.FilterExpression).toBeUndefined();
    expect(jsonBody(plain)[0]).not.toHaveProperty('image');
    expect(jsonBody(withImage)[0].image).toMatchObject({
      id: 'img1',
      url: expect.stringMatching(/catalogue\/img1\.jpg$/),
    });
  });

  it("lets only administrators list another account's favourites", async () => {
    ddb.on(QueryCommand, { IndexName: 'gsi1' } as never).resolves({ Items: [] });

    expect(
      (await call(listFavourites, { path: '/v1/favourites', query: { account_id: 'acc-admin' } })).statusCode,
    ).toBe(403);
    expect(
      (await call(listFavourites, { path: '/v1/favourites', query: { account_id: 'acc-user' } }, ADMIN_KEY)).statusCode,
    ).toBe(200);
  });
});
