import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Architecture, type ILayerVersion, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { buildSync } from 'esbuild';
import { LAMBDA_BUNDLE, POWERTOOLS_LAYER_MODULES, POWERTOOLS_LAYER_PACKAGES } from '../lambda-bundle.ts';
import { LAYER_MODES, LAYERS_DIR, layerCode, NODE_MODULES, packageDir, setLayerModes } from './layer-assets.ts';

/**
 * The Powertools layer's folder: each package of POWERTOOLS_LAYER_PACKAGES bundled, with the subpaths listed there,
 * into minified ESM as /opt/nodejs/node_modules/<package>/index.mjs (and <subpath>.mjs, sharing chunks/), from the
 * versions `npm ci` installed. One file per entry loads in a fraction of the time of the package's hundred files
 * (`npm run bench` measures both). Built once per installed version; `npm run bench` imports the same folder.
 */
export function powertoolsLayerDir(): string {
  const versions = POWERTOOLS_LAYER_MODULES.map((name) => {
    const manifest = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
    return `${name}@${manifest.version}`;
  });
  const id = createHash('sha256')
    .update(JSON.stringify([versions, POWERTOOLS_LAYER_PACKAGES, LAMBDA_BUNDLE, LAYER_MODES]))
    .digest('hex')
    .slice(0, 12);
  const dir = join(LAYERS_DIR, `powertools-${id}`);
  if (existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  for (const name of POWERTOOLS_LAYER_MODULES) bundlePackage(name, POWERTOOLS_LAYER_PACKAGES[name], staging);
  setLayerModes(staging);
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another synth finished the same folder first
  }
  return dir;
}

/** One package's subpaths as entries of one esbuild run, so code they share is loaded once (chunks/). */
function bundlePackage(name: string, subpaths: readonly string[], staging: string): void {
  const target = join(staging, 'nodejs', 'node_modules', name);
  const entries = join(staging, 'entries', name);
  mkdirSync(entries, { recursive: true });
  const outName = (subpath: string) => (subpath === '.' ? 'index' : subpath.slice(2));
  const entryPoints = Object.fromEntries(
    subpaths.map((subpath, i) => {
      const file = join(entries, `${i}.mjs`);
      writeFileSync(file, `export * from '${subpath === '.' ? name : `${name}/${subpath.slice(2)}`}';\n`);
      return [outName(subpath), file];
    }),
  );
  buildSync({
    entryPoints,
    nodePaths: [NODE_MODULES],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: LAMBDA_BUNDLE.target,
    minify: true,
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    banner: { js: LAMBDA_BUNDLE.banner },
    outdir: target,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'silent',
  });
  const exports = Object.fromEntries(subpaths.map((subpath) => [subpath, `./${outName(subpath)}.mjs`]));
  writeFileSync(join(target, 'package.json'), JSON.stringify({ name, type: 'module', exports }));
  rmSync(join(staging, 'entries'), { recursive: true, force: true });
}

const layers = new WeakMap<Stack, LayerVersion>();

/**
 * Powertools for every function of the stage, in one layer: Logger, Metrics and Tracer. The bundles keep them external
 * (infra/lambda-bundle.ts), so they add nothing to any function's bundle. Pure JavaScript: one layer serves arm64 and
 * x86_64 alike.
 */
export function powertoolsLayer(scope: IConstruct): ILayerVersion {
  let root = Stack.of(scope);
  while (root.nestedStackParent) root = root.nestedStackParent;
  const existing = layers.get(root);
  if (existing) return existing;
  const layer = new LayerVersion(root, 'PowertoolsLayer', {
    code: layerCode(powertoolsLayerDir()),
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    compatibleArchitectures: [Architecture.ARM_64, Architecture.X86_64],
    description:
      'Powertools for AWS Lambda (TypeScript): Logger, Metrics, Tracer with the X-Ray SDK, bundled per package',
  });
  layers.set(root, layer);
  return layer;
}
