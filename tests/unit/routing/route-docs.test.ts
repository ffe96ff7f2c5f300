import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.ts';

const architecture = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'ARCHITECTURE.md'), 'utf8');

describe('docs/ARCHITECTURE.md', () => {
  it('lists every route of the table with its handler and auth mode', () => {
    for (const r of routes)
      expect(architecture, `${r.method} ${r.path}`).toContain(`| ${r.method} | ${r.path} | ${r.entry} | ${r.auth}`);
  });
});
