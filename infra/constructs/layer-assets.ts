// Layer folders built from what `npm ci` installed (nothing is downloaded at build time), shared by the layers.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FileSystem } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';

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
    `${name}-${createHash('sha256')
      .update(JSON.stringify([installed, LAYER_MODES]))
      .digest('hex')
      .slice(0, 12)}`,
  );
  if (existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  for (const [source, target] of copies) {
    mkdirSync(dirname(join(staging, target)), { recursive: true });
    cpSync(source, join(staging, target), { recursive: true, dereference: true });
  }
  setLayerModes(staging);
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another synth finished the same folder first
  }
  return dir;
}

/**
 * The modes of every staged layer file. Lambda runs a function as a user that does not own the layer's files, so
 * what the owner alone may read or run (an npm package's 0744 ffprobe) fails there with EACCES: files become
 * readable by all, and whatever its owner may run, runnable by all. Part of the layer folder's hash and of the asset's.
 */
export const LAYER_MODES = { file: 0o644, executable: 0o755, folder: 0o755 } as const;

/** Sets LAYER_MODES on everything under `dir` (an executable: a file its owner may run). */
export function setLayerModes(dir: string): void {
  chmodSync(dir, LAYER_MODES.folder);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(path, LAYER_MODES.folder);
    else chmodSync(path, statSync(path).mode & 0o100 ? LAYER_MODES.executable : LAYER_MODES.file);
  }
}

/**
 * A layer folder as a Lambda asset. The CDK hashes an asset by its files' contents alone, so a change of modes only
 * would keep the asset name, and a deploy the zip uploaded before under it: the modes join the hash.
 */
export const layerCode = (dir: string): Code =>
  Code.fromAsset(dir, {
    assetHash: FileSystem.fingerprint(dir, { extraHash: `modes ${JSON.stringify(LAYER_MODES)}` }),
  });
