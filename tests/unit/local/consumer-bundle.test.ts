import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { consumers } from '../../../events/consumers.ts';
import { consumerBundle } from '../../../scripts/local/consumer-bundle.ts';

describe('consumer threads run bundled JavaScript', () => {
  it('bundles the thread entry and every queue consumer, importing shared code from common chunks', async () => {
    const bundle = await consumerBundle();
    const entry = readFileSync(fileURLToPath(bundle.entry), 'utf8');
    for (const consumer of consumers.filter((c) => 'queue' in c.source)) {
      const file = fileURLToPath(bundle.handler(consumer.entry));
      expect(existsSync(file), consumer.entry).toBe(true);
      expect(readFileSync(file, 'utf8')).toMatch(/export\s*\{[^}]*handler/);
    }
    // The entry counts the handler's DynamoDB requests on shared/deps.ts: both must load it from one shared chunk.
    expect(entry).not.toContain('function getDeps');
    expect(entry).toMatch(/from "\.\.\/\.\.\/chunk-[A-Z0-9]+\.js"/);
  });

  it('answers one bundle per process', async () => {
    expect(await consumerBundle()).toBe(await consumerBundle());
  });
});
