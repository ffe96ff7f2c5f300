import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedKey } from '../../../scripts/local/seed-snapshot.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const copy = mkdtempSync(join(tmpdir(), 'seed-key-'));
for (const path of ['data', 'events', 'functions', 'scripts', 'shared', 'package-lock.json'])
  cpSync(join(ROOT, path), join(copy, path), { recursive: true });
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the seeded table snapshot of local starts', () => {
  it('is the same for the same sources, data and DynamoDB Local build', async () => {
    expect(await seedKey(copy, 'dynamodb_local_a')).toBe(await seedKey(ROOT, 'dynamodb_local_a'));
  }, 60_000);

  it('is another one when a data set, a key shape or the DynamoDB Local build changes', async () => {
    const before = await seedKey(copy, 'dynamodb_local_a');
    const facts = join(copy, 'data', 'facts.json');
    writeFileSync(facts, JSON.stringify(JSON.parse(readFileSync(facts, 'utf8')).slice(1)));
    const withoutAFact = await seedKey(copy, 'dynamodb_local_a');
    writeFileSync(
      join(copy, 'shared', 'db', 'keys.ts'),
      `${readFileSync(join(copy, 'shared', 'db', 'keys.ts'), 'utf8')}\n//`,
    );
    const withOtherKeys = await seedKey(copy, 'dynamodb_local_a');

    expect(new Set([before, withoutAFact, withOtherKeys, await seedKey(copy, 'dynamodb_local_b')]).size).toBe(4);
  }, 60_000);
});
