import {
  BatchGetCommand,
  type BatchGetCommandInput,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/list-pets.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import type { PetItem } from '../../../shared/domain/pets/pet.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import { aStoredPet, callAs, OTHER_KEY, ownerAndStranger } from './pet-fixtures.ts';

const list = (key: string, query?: Record<string, string>) =>
  callAs(handler, key, { path: '/v1/pets', ...(query && { query }) });
const names = (result: unknown) => jsonBody(result).map((p: { name: string }) => p.name);

/** Seven pets of acc-user, p1 oldest: odd ones are beagles of owner o1, even ones cats. */
const pets = Array.from({ length: 7 }, (_, i) =>
  aStoredPet({
    id: `p${i + 1}`,
    name: `Pet ${i + 1}`,
    ...(i % 2 === 0
      ? { breed_ids: ['beagle'], external_owner_id: 'o1' }
      : { species_id: 'cat', external_owner_id: 'o2' }),
  }),
);
const row = (pet: PetItem) => ({
  pk: `PET#${pet.id}`,
  sk: 'PET',
  gsi1pk: `ACCOUNT#${pet.account_id}#PETS`,
  gsi1sk: `PET#${pet.id}`,
  type: 'Pet',
  ...pet,
});

/**
 * The account's gsi1 partition as DynamoDB answers a Query of it: in key order (or reversed), after the
 * ExclusiveStartKey, equality filters applied, at most Limit items with a LastEvaluatedKey when more remain, and
 * only the projected attributes.
 */
function serveAccountPets(ddb: ReturnType<typeof mockDynamoWithAccounts>, stored: PetItem[]) {
  const rows = stored.map(row);
  ddb.on(QueryCommand, { IndexName: 'gsi1' }).callsFake((input: QueryCommandInput) => {
    const values = input.ExpressionAttributeValues ?? {};
    let items = rows.filter((r) => r.gsi1pk === values[':partition']);
    if (input.ScanIndexForward === false) items.reverse();
    if (input.ExclusiveStartKey) items = items.slice(items.findIndex((r) => r.pk === input.ExclusiveStartKey!.pk) + 1);
    const limited = items.slice(0, input.Limit ?? items.length);
    const more = limited.length < items.length;
    const filters = Object.entries(input.ExpressionAttributeNames ?? {});
    const matching = limited.filter((r) =>
      filters.every(([alias, field]) => r[field as keyof typeof r] === values[alias.replace('#', ':')]),
    );
    const fields = input.ProjectionExpression?.split(', ');
    return {
      Items: matching.map((r) => (fields ? Object.fromEntries(fields.map((f) => [f, r[f as keyof typeof r]])) : r)),
      ...(more && { LastEvaluatedKey: { pk: limited.at(-1)!.pk, sk: 'PET' } }),
    };
  });
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const [table, { Keys }] = Object.entries(input.RequestItems!)[0]!;
    // DynamoDB answers a batch in any order.
    return { Responses: { [table]: rows.filter((r) => Keys!.some((k) => k.pk === r.pk)).reverse() } };
  });
}

describe('GET /v1/pets', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  /** The Queries of the account's pets (breeds come from the reference data, read alongside). */
  const queries = () =>
    ddb
      .commandCalls(QueryCommand)
      .map((c) => c.args[0].input)
      .filter((q) => q.IndexName === 'gsi1');
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    serveReferenceData(ddb, { breeds: [aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'] })] });
    serveAccountPets(ddb, pets);
    ddb.on(GetCommand, { Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' } } as never).resolves({ Item: { pets: 7 } });
    setDepsForTest({ random: () => 0 });
  });

  it('answers the first page oldest first, reading that page alone and the total from the account’s count', async () => {
    const result = await list(USER_KEY, { limit: '3' });

    expect(result.statusCode).toBe(200);
    expect(names(result)).toEqual(['Pet 1', 'Pet 2', 'Pet 3']);
    expect(result.headers['pagination-count']).toBe('7');
    expect(jsonBody(result)[0]).toMatchObject({ breeds: [{ id: 'beagle', name: 'Beagle' }] });
    expect(jsonBody(result)[0]).not.toHaveProperty('account_id');
    expect(queries()).toEqual([expect.objectContaining({ IndexName: 'gsi1', Limit: 3, ScanIndexForward: true })]);
    expect(queries()[0]).not.toHaveProperty('FilterExpression');
  });

  it('reads the pets before a later page as keys only, then the page from the last of them', async () => {
    const second = await list(USER_KEY, { limit: '3', page: '1' });
    const last = await list(USER_KEY, { limit: '3', page: '2', order: 'DESC' });
    const beyond = await list(USER_KEY, { limit: '3', page: '3' });

    expect(names(second)).toEqual(['Pet 4', 'Pet 5', 'Pet 6']);
    expect(names(last)).toEqual(['Pet 1']);
    expect(names(beyond)).toEqual([]);
    for (const page of [second, last, beyond]) expect(page.headers['pagination-count']).toBe('7');
    const [skip, read] = queries();
    expect(skip).toMatchObject({ ProjectionExpression: 'pk, sk, gsi1pk, gsi1sk', Limit: 3 });
    expect(read).toMatchObject({ Limit: 3, ExclusiveStartKey: { pk: 'PET#p3', sk: 'PET' } });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('counts what matches a filter and reads whole only the page’s pets, in order', async () => {
    const owner = await list(USER_KEY, { external_owner_id: 'o1', limit: '2', page: '1' });
    const cats = await list(USER_KEY, { species_id: 'cat', order: 'DESC' });
    const hounds = await list(USER_KEY, { breed_groups: 'hound', limit: '2' });
    const notHounds = await list(USER_KEY, { exclude_breed_groups: 'Hound', limit: '1' });

    expect([names(owner), owner.headers['pagination-count']]).toEqual([['Pet 5', 'Pet 7'], '4']);
    expect([names(cats), cats.headers['pagination-count']]).toEqual([['Pet 6', 'Pet 4', 'Pet 2'], '3']);
    expect([names(hounds), hounds.headers['pagination-count']]).toEqual([['Pet 1', 'Pet 3'], '4']);
    expect([names(notHounds), notHounds.headers['pagination-count']]).toEqual([['Pet 2'], '3']);
    // Filtered lists read every pet's keys and filterable fields, never whole pets beyond the page.
    expect(queries()[0]).toMatchObject({
      FilterExpression: '#e0 = :e0',
      ProjectionExpression: expect.stringContaining('breed_ids'),
    });
    expect(ddb.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems!['test-table']!.Keys).toEqual([
      { pk: 'PET#p5', sk: 'PET' },
      { pk: 'PET#p7', sk: 'PET' },
    ]);
  });

  it('answers `limit` pets in random order from all of the account’s pets', async () => {
    const result = await list(USER_KEY, { order: 'RANDOM', limit: '3' });

    expect(names(result)).toHaveLength(3);
    expect(new Set(names(result)).size).toBe(3);
    expect(result.headers['pagination-count']).toBe('7');
  });

  it('answers another account only its own pets: none here, a total of 0', async () => {
    const result = await list(OTHER_KEY);

    expect(names(result)).toEqual([]);
    expect(result.headers['pagination-count']).toBe('0');
  });

  it('answers 400 for a limit or page out of range, an unknown order or parameter, before reading pets', async () => {
    const bad: Record<string, string>[] = [
      { limit: '0' },
      { limit: '101' },
      { page: '101' },
      { order: 'SIDEWAYS' },
      { owner: 'x' },
    ];
    for (const query of bad) {
      const result = await list(USER_KEY, query);
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toMatchObject({ statusCode: 400, error: 'Bad Request', path: '/v1/pets' });
    }
    expect(jsonBody(await list(USER_KEY, { external_owner_id: 'x'.repeat(256) })).message).toEqual([
      expect.stringMatching(/^external_owner_id/),
    ]);
    expect(queries()).toHaveLength(0);
  });
});
