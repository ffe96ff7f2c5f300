// Scratch directories for CDK synths: one root per test file, removed when the file's tests end. A synth writes its
// assets (about 180 MB here), so runs that left them in the system's temp folder filled the disk within an afternoon.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function scratchDirs(label: string): (name: string) => string {
  const root = mkdtempSync(join(tmpdir(), `pet-api-${label}-`));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return (name) => mkdtempSync(join(root, `${name}-`));
}
