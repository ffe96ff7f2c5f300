// Layer folders built from what `npm ci` installed (nothing is downloaded at build time), shared by the layers.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const NODE_MODULES = join(ROOT, 'node_modules');

export const LAYERS_DIR = join(ROOT, '.local', 'layers');
/** Package folders are found by name under node_modules (some packages export no package.json subpath). */
export const packageDir = (name: string) => join(NODE_MODULES, name);

/**
 * Copies the packages into a layer folder (Lambda mounts a layer at /opt). The folder is named by what it holds and
 * filled under a temporary name first, so synths running at once (tests, `cdk synth`) never see it half-written.
 */
export function stageLayer(name: string, copies: [source: string, target: string][]): string {
  const installed = copies.map(([source]) => [source, statSync(source).mtimeMs]);
  const dir = join(
    LAYERS_DIR,
    `${name}-${createHash('sha256').update(JSON.stringify(installed)).digest('hex').slice(0, 12)}`,
  );
  if (existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  for (const [source, target] of copies) {
    mkdirSync(dirname(join(staging, target)), { recursive: true });
    cpSync(source, join(staging, target), { recursive: true, dereference: true });
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another synth finished the same folder first
  }
  return dir;
}
