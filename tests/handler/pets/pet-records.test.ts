// The pet record routes: the list's input rules and paging, one record, and the export as JSON and CSV.
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as exportRecords } from '../../../functions/pets/export-pet-records.ts';
import { handler as getRecord } from '../../../functions/pets/get-pet-record.ts';
import { handler as listRecords } from '../../../functions/pets/list-pet-records.ts';
import { petRecordKey, petRecordTypeIndex } from '../../../shared/db/keys.ts';
import type { PetRecord } from '../../../shared/domain/records/record.ts';
import { MAX_EXPORT_RECORDS } from '../../../shared/domain/records/service.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aRecord } from '../../support/factories/records.ts';
import { aStoredPet, callAs, OTHER_KEY, ownerAndStranger, servePet } from './pet-fixtures.ts';

const row = (record: PetRecord) => ({
  ...petRecordKey(record.pet_id, record.id),
  ...petRecordTypeIndex(record.pet_id, record.type, record.id),
  type: 'PetRecord',
  record,
});

/** The mocked table answers record Queries from these rows as DynamoDB would: partition, key range, order, Limit. */
function serveRecords(ddb: ReturnType<typeof mockDynamoWithAccounts>, records: PetRecord[]) {
  const rows = records.map(row).sort((a, b) => a.sk.localeCompare(b.sk));
  ddb.on(QueryCommand).callsFake((input: QueryCommandInput) => {
    const v = input.ExpressionAttributeValues ?? {};
    const key = input.IndexName === 'gsi1' ? 'gsi1pk' : 'pk';
    let matching = rows.filter((r) => r[key] === v[':partition'] && r.sk >= v[':from'] && r.sk <= v[':to']);
    if (input.ScanIndexForward === false) matching = matching.reverse();
    const start = input.ExclusiveStartKey;
    if (start) matching = matching.slice(matching.findIndex((r) => r.sk === start.sk) + 1);
    const page = input.Limit === undefined ? matching : matching.slice(0, input.Limit);
    const last = page.at(-1);
    const lastKey =
      last &&
      (input.IndexName
        ? { pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk }
        : { pk: last.pk, sk: last.sk });
    return { Items: page, ...(last && page.length < matching.length && { LastEvaluatedKey: lastKey }) };
  });
  for (const r of rows) ddb.on(GetCommand, { Key: { pk: r.pk, sk: r.sk } } as never).resolves({ Item: r });
}

const path = (suffix = '') => `/v1/pets/pet-1/records${suffix}`;
const list = (query?: Record<string, string>, key = USER_KEY) =>
  callAs(listRecords, key, { path: path(), pathParameters: { petId: 'pet-1' }, ...(query && { query }) });

describe('the pet record routes', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  const records = [
    aRecord(1),
    aRecord(2, { type: 'respiratory_rate', inputs: [{ kind: 'video', id: 'vid-1', sha256: 'b'.repeat(64) }] }),
    aRecord(3, { result: { score: 7, explanation: '=HYPERLINK("x")' } }),
  ];
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet());
    serveRecords(ddb, records);
  });

  it('lists newest first, a page at a time, with a cursor that continues after the page', async () => {
    const first = await list({ limit: '2' });
    expect(first.statusCode).toBe(200);
    expect(jsonBody(first).map((r: PetRecord) => r.id)).toEqual([records[2]!.id, records[1]!.id]);
    const cursor = first.headers['next-cursor'];
    const second = await list({ limit: '2', cursor });
    expect(jsonBody(second)).toEqual([records[0]]);
    expect(second.headers['next-cursor']).toBeUndefined();
  });

  it('narrows by type (its own index) and by a time window, both ends included', async () => {
    expect(jsonBody(await list({ type: 'respiratory_rate' }))).toEqual([records[1]]);
    const window = await list({ since: records[0]!.created_at, until: records[1]!.created_at });
    expect(jsonBody(window).map((r: PetRecord) => r.id)).toEqual([records[1]!.id, records[0]!.id]);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ IndexName: 'gsi1' });
  });

  it('hands out no cursor when the records end exactly at the end of a page', async () => {
    const whole = await list({ limit: '3' });

    expect(jsonBody(whole)).toHaveLength(3);
    expect(whole.headers['next-cursor']).toBeUndefined();
  });

  it('answers 400 in the error JSON for a bad type, bad dates, since after until, a bad limit or cursor', async () => {
    const cases: Record<string, string>[] = [
      { type: 'blood_test' },
      { since: 'yesterday' },
      { until: '2026-13-01T00:00:00Z' },
      { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' },
      { limit: '0' },
      { cursor: 'not-a-cursor' },
      {
        cursor: Buffer.from(JSON.stringify({ pk: 'PET#pet-2', sk: `RECORD#${records[0]!.id}` })).toString('base64url'),
      },
      { color: 'red' },
    ];
    for (const query of cases) {
      const result = await list(query);
      expect(result.statusCode, JSON.stringify(query)).toBe(400);
      expect(jsonBody(result)).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        path: path(),
        timestamp: expect.any(String),
      });
    }
  });

  it('refuses a cursor of another window or type rather than sending DynamoDB a start key outside the query', async () => {
    const cursor = (await list({ limit: '1' })).headers['next-cursor'];
    for (const query of [
      { cursor, until: records[0]!.created_at },
      { cursor, type: 'body_condition_score' },
    ] as Record<string, string>[]) {
      expect(jsonBody(await list(query))).toMatchObject({ statusCode: 400, code: 'invalid_cursor' });
    }
  });

  it('answers one record, 404 for an unknown one, 403 for another account and 404 for an unknown pet', async () => {
    const get = (recordId: string, key = USER_KEY, petId = 'pet-1') =>
      callAs(getRecord, key, { path: `/v1/pets/${petId}/records/${recordId}`, pathParameters: { petId, recordId } });
    expect(jsonBody(await get(records[1]!.id))).toEqual(records[1]);
    expect(jsonBody(await get('01NOPE'))).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await get(records[1]!.id, OTHER_KEY)).statusCode).toBe(403);
    expect((await list({}, OTHER_KEY)).statusCode).toBe(403);
    expect((await get(records[1]!.id, USER_KEY, 'pet-404')).statusCode).toBe(404);
  });

  describe('the export', () => {
    const exported = (headers: Record<string, string> = {}, query?: Record<string, string>) =>
      callAs(exportRecords, USER_KEY, {
        path: path('/export'),
        pathParameters: { petId: 'pet-1' },
        headers,
        ...(query && { query }),
      });

    it('answers every record oldest first with its inputs in one JSON document', async () => {
      const result = await exported();
      expect(result.headers['content-type']).toMatch(/^application\/json/);
      expect(jsonBody(result)).toMatchObject({
        pet: { id: 'pet-1', name: 'Rex', sub_id: 'user-1' },
        selection: { type: null, since: null, until: null },
        record_count: 3,
        records,
      });
    });

    it('answers CSV for Accept: text/csv: a header row, one quoted row per record, formulas defused', async () => {
      const result = await exported({ accept: 'text/csv' });
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = result.body.split('\r\n');
      expect(lines[0]).toBe(
        'id,created_at,type,pet_id,account_id,sub_id,provider,model_id,method_version,lang,season,country,vet_account_id,vet_decision,inputs,result',
      );
      expect(lines[1]).toBe(
        `${records[0]!.id},${records[0]!.created_at},body_condition_score,pet-1,acc-user,user-1,openai,model-1,v1,en,,,,,photo:ph-1:${'a'.repeat(64)},"{""score"":5,""explanation"":""Ribs, \\""waist\\"", tuck""}"`,
      );
      expect(lines[2]).toContain(`video:vid-1:${'b'.repeat(64)}`);
      expect(lines).toHaveLength(5); // three records, the header and the final line end
    });

    it('refuses a selection beyond the cap with 422 export_too_large instead of leaving records out', async () => {
      serveRecords(
        ddb,
        Array.from({ length: MAX_EXPORT_RECORDS + 1 }, (_, i) => aRecord(i)),
      );
      const result = await exported();
      expect(result.statusCode).toBe(422);
      expect(jsonBody(result)).toMatchObject({ statusCode: 422, code: 'export_too_large', limit: MAX_EXPORT_RECORDS });
    });

    it('takes the list selection and refuses since after until', async () => {
      expect(jsonBody(await exported({}, { type: 'respiratory_rate' })).records).toEqual([records[1]]);
      const refused = await exported({}, { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' });
      expect(refused.statusCode).toBe(400);
    });
  });
});
