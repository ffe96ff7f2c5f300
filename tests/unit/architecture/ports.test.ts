import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every outside provider has the same shape (README "How to add a provider"): a port in shared/ports/<port>.ts and
// one folder of adapters, shared/adapters/<port>/, with the deployed, local and test adapters and the picker.
const SHARED = resolve(import.meta.dirname, '..', '..', '..', 'shared');
const ADAPTER_FILES = ['aws.ts', 'local.ts', 'fake.ts', 'index.ts'];

const ports = readdirSync(join(SHARED, 'ports')).map((file) => file.replace(/\.ts$/, ''));

describe('ports and adapters', () => {
  it('finds the ports', () => {
    expect(ports).toEqual(
      expect.arrayContaining(['vision-model', 'image-generator', 'labeller', 'secret-cipher', 'owner-mail']),
    );
  });

  it.each(ports)('%s has its deployed, local and fake adapters and a picker in its own folder', (port) => {
    const missing = ADAPTER_FILES.filter((file) => !existsSync(join(SHARED, 'adapters', port, file)));
    expect(missing).toEqual([]);
  });

  it('holds no adapter outside a port folder', () => {
    const entries = readdirSync(join(SHARED, 'adapters'), { withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    expect(entries.map((entry) => entry.name).sort()).toEqual([...ports].sort());
  });
});
