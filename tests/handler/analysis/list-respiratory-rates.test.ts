import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as list } from '../../../functions/analysis/list-respiratory-rates.ts';
import { respiratoryRateKey } from '../../../shared/db/keys.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { aStoredMeasurement } from '../../support/factories/respiration.ts';
import { aStoredPet, servePet } from '../pets/pet-fixtures.ts';

/** A completed measurement of pet-1, `n` days after 20 November. */
const completed = (n: number, breaths_per_minute: number) =>
  aStoredMeasurement({
    id: `rr-${n}`,
    status: 'completed',
    breaths_per_minute,
    within_baseline: breaths_per_minute <= 30,
    signal_quality: 12,
    created_at: `2026-11-${20 + n}T06:00:00.000Z`,
    generated_at: `2026-11-${20 + n}T06:00:05.000Z`,
  });
const get = (query?: Record<string, string>, petId = 'pet-1') =>
  callWithKey(list, USER_KEY, `/pets/${petId}/respiratory-rate`, query, { petId });

describe('GET /v1/pets/{petId}/respiratory-rate', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([
      { apiKey: USER_KEY, account: anAccount({ features: ['respiratory_rate'] }) },
      { apiKey: 'live_no-feature', account: anAccount({ id: 'acc-plain' }) },
    ]);
    servePet(ddb, aStoredPet());
    // Newest first, as the Query reads them; the filter has left the completed ones.
    ddb.on(QueryCommand).resolves({ Items: [completed(4, 34), completed(3, 20), completed(2, 21), completed(1, 20)] });
    setDepsForTest({ now: () => new Date('2026-11-25T00:00:00Z') });
  });

  it("lists completed measurements newest first, with the latest against the pet's baseline of the ones before it", async () => {
    const result = await get();

    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(body.trend).toEqual({
      latest: { id: 'rr-4', breaths_per_minute: 34, created_at: '2026-11-24T06:00:00.000Z' },
      baseline: { breaths_per_minute: 20, measurements: 3, reason: null },
      change: { breaths_per_minute: 14, percent: 70 },
      days_covered: 3,
    });
    expect(body.measurements.map((m: { id: string }) => m.id)).toEqual(['rr-4', 'rr-3', 'rr-2', 'rr-1']);
    expect(body.measurements[0]).toMatchObject({
      status: 'completed',
      breaths_per_minute: 34,
      disclaimer: expect.stringContaining('not a veterinary diagnosis'),
      validation: expect.stringMatching(/docs\/respiratory-rate\.md#accuracy$/),
    });
    // The pet's measurements only, completed only, newest first; the trend's read is consistent.
    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries).toHaveLength(2);
    for (const query of queries)
      expect(query).toMatchObject({
        ScanIndexForward: false,
        ExpressionAttributeValues: { ':pet': 'PET#pet-1', ':measurements': 'RESPIRATORY#', ':completed': 'completed' },
      });
    expect(queries.filter((q) => q.ConsistentRead)).toHaveLength(1);
  });

  it('pages by cursor, and refuses a cursor of another pet or one it never made', async () => {
    const first = await get({ limit: '2' });
    expect(jsonBody(first).measurements.map((m: { id: string }) => m.id)).toEqual(['rr-4', 'rr-3']);
    const cursor = String(first.headers['next-cursor']);

    ddb.on(QueryCommand).resolves({ Items: [completed(2, 21), completed(1, 20)] });
    const second = await get({ limit: '3', cursor });
    expect(jsonBody(second).measurements.map((m: { id: string }) => m.id)).toEqual(['rr-2', 'rr-1']);
    // The pet has no more: no cursor.
    expect(second.headers?.['next-cursor']).toBeUndefined();
    const starts = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input.ExclusiveStartKey);
    expect(starts).toContainEqual(respiratoryRateKey('pet-1', 'rr-3'));

    const foreign = Buffer.from(JSON.stringify(respiratoryRateKey('pet-2', 'rr-3'))).toString('base64url');
    for (const bad of [foreign, 'not-a-cursor'])
      expect(jsonBody(await get({ cursor: bad }))).toMatchObject({ statusCode: 400, code: 'invalid_cursor' });
    expect(jsonBody(await get({ limit: '101' }))).toMatchObject({ statusCode: 400 });
  });

  it('gives the disclaimer in the language asked for', async () => {
    const body = jsonBody(await get({ lang: 'DE' }));
    expect(body.measurements[0].disclaimer).toMatch(/keine tierärztliche Diagnose/);
    expect(jsonBody(await get({ lang: 'xx' }))).toMatchObject({ statusCode: 400 });
  });

  it('says why there is no baseline for a pet with fewer than three earlier measurements', async () => {
    ddb.on(QueryCommand).resolves({ Items: [completed(2, 22), completed(1, 20)] });
    const { trend } = jsonBody(await get());
    expect(trend.latest.id).toBe('rr-2');
    expect(trend.baseline.reason).toBe('needs 3 completed measurements before the latest, has 1');
    expect([trend.baseline.breaths_per_minute, trend.change]).toEqual([null, null]);
  });

  it("answers 403 for another account's pet and without the feature, 404 for an unknown pet", async () => {
    servePet(ddb, aStoredPet({ id: 'pet-9', account_id: 'acc-other' }));
    expect((await get(undefined, 'pet-9')).statusCode).toBe(403);
    expect((await get(undefined, 'pet-404')).statusCode).toBe(404);
    const plain = await callWithKey(list, 'live_no-feature', '/pets/pet-1/respiratory-rate', undefined, {
      petId: 'pet-1',
    });
    expect(jsonBody(plain)).toMatchObject({ statusCode: 403, code: 'feature_not_enabled' });
  });
});
