// `npm run table` on the local stack, as the operator runs it for a restore rehearsal: a table's items (more than a
// page, every DynamoDB type, numbers beyond a double, binary) exported to a file and imported into a new table come
// back exactly; a file with a bad line imports nothing; a table that already holds items is refused.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BatchWriteItemCommand, DeleteTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../scripts/local/stack.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const env = inject('localEnv');
const ddb = new DynamoDBClient({
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
});
const suffix = Date.now().toString(36);
const SOURCE = `table-cli-source-${suffix}`;
const TARGET = `table-cli-target-${suffix}`;
const dir = mkdtempSync(join(tmpdir(), 'table-cli-'));
const created = [SOURCE];

/** Runs `npm run table -- …` against the local stack; answers its exit code, JSON report and stderr. */
async function table(...args: string[]) {
  const port = new URL(env.AWS_ENDPOINT_URL_DYNAMODB!).port;
  const argv = ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'scripts/table.ts', ...args];
  try {
    const { stdout, stderr } = await run(process.execPath, argv, {
      cwd: ROOT,
      env: { ...process.env, DYNAMODB_LOCAL_PORT: port },
    });
    return { code: 0, report: JSON.parse(stdout), stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, report: undefined, stderr: failed.stderr };
  }
}

const allItems = async (tableName: string) => {
  const items = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const page = await ddb.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.sort((a, b) => `${a.pk!.S}${a.sk!.S}`.localeCompare(`${b.pk!.S}${b.sk!.S}`));
};

beforeAll(async () => {
  await ensureTable(ddb, SOURCE);
  const items = Array.from({ length: 230 }, (_, i) => ({
    pk: { S: `PET#${String(i).padStart(3, '0')}` },
    sk: { S: 'PROFILE' },
    name: { S: `Rex "${i}"\n\u00e9\u{1F436}` },
    weight: { N: String(i + 0.25) },
  }));
  items.push({
    pk: { S: 'EVERY' },
    sk: { S: 'TYPE' },
    big: { N: '12345678901234567890123456789012345678' },
    bytes: { B: new Uint8Array([0, 1, 2, 254, 255]) },
    byteSet: { BS: [new Uint8Array([1]), new Uint8Array([2, 3])] },
    tags: { SS: ['calm', 'small'] },
    scores: { NS: ['1', '2.5', '-3e4'] },
    flag: { BOOL: false },
    nothing: { NULL: true },
    nested: { M: { list: { L: [{ S: 'a' }, { N: '1' }, { M: { deep: { BOOL: true } } }] } } },
  } as never);
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    const { UnprocessedItems } = await ddb.send(new BatchWriteItemCommand({ RequestItems: { [SOURCE]: batch } }));
    expect(UnprocessedItems?.[SOURCE] ?? []).toEqual([]);
  }
}, 120_000);

afterAll(async () => {
  for (const TableName of created) await ddb.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
  ddb.destroy();
});

// Each case starts the CLI (a tsx process) once or twice; on a busy machine that alone takes seconds.
describe('npm run table', { timeout: 120_000 }, () => {
  const file = join(dir, 'items.jsonl');

  it('exports every item, a page at a time, and imports them into a new table exactly as they were', async () => {
    const exported = await table('export', '--table', SOURCE, '--out', file);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.report).toEqual({ table: SOURCE, file, items: 231 });
    expect(exported.stderr).toContain('100 items exported');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(231);

    created.push(TARGET);
    const imported = await table('import', '--in', file, '--table', TARGET, '--create');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.report).toEqual({ table: TARGET, file, items: 231 });
    expect(await allItems(TARGET)).toEqual(await allItems(SOURCE));
  });

  it('refuses a table that already holds items, and a file that exists', async () => {
    const again = await table('import', '--in', file, '--table', TARGET);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`table ${TARGET} already holds items`);
    const overwrite = await table('export', '--table', SOURCE, '--out', file);
    expect(overwrite.code).toBe(1);
    expect(overwrite.stderr).toContain('EEXIST');
  });

  it('imports nothing from a file with a bad line, and names the line', async () => {
    const bad = join(dir, 'bad.jsonl');
    const good = readFileSync(file, 'utf8').split('\n').slice(0, 150);
    writeFileSync(bad, [...good, '{"Item":{"pk":{"S":"X"},"sk":{"S":"Y"},"n":{"N":"twelve"}}}', ''].join('\n'));
    const target = `${TARGET}-bad`;
    created.push(target);
    const imported = await table('import', '--in', bad, '--table', target, '--create');
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`${bad} line 151: not {"Item": {…}} in DynamoDB JSON`);
    await expect(ddb.send(new ScanCommand({ TableName: target }))).rejects.toThrow(/non-existent table|not found/i);
  });
});
