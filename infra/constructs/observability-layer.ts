import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Architecture, Code, type ILayerVersion, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { buildSync } from 'esbuild';
import { LAMBDA_BUNDLE, OBSERVABILITY_PACKAGES } from '../lambda-bundle.ts';
import { LAYERS_DIR, packageDir } from './layer-assets.ts';

/**
 * The observability layer's folder: each Powertools package (Logger, Metrics, Tracer with the X-Ray SDK) bundled into
 * one minified ESM file as /opt/nodejs/node_modules/<package>/index.mjs, from the versions `npm ci` installed. One file
 * per package loads in a fraction of the time of the package's hundred files (`npm run bench` measures both). Built
 * once per installed version; `npm run bench` imports the same folder.
 */
export function observabilityLayerDir(): string {
  const versions = OBSERVABILITY_PACKAGES.map((name) => {
    const manifest = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
    return `${name.split('/').pop()}-${manifest.version}`;
  });
  const dir = join(LAYERS_DIR, `observability-${versions.join('_')}`);
  if (existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  for (const name of OBSERVABILITY_PACKAGES) {
    const target = join(staging, 'nodejs', 'node_modules', name);
    mkdirSync(target, { recursive: true });
    buildSync({
      stdin: { contents: `export * from '${name}';`, resolveDir: packageDir(name), loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: LAMBDA_BUNDLE.target,
      minify: true,
      mainFields: [...LAMBDA_BUNDLE.mainFields],
      banner: { js: LAMBDA_BUNDLE.banner },
      outfile: join(target, 'index.mjs'),
      logLevel: 'silent',
    });
    writeFileSync(
      join(target, 'package.json'),
      JSON.stringify({ name, type: 'module', exports: { '.': './index.mjs' } }),
    );
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another synth finished the same folder first
  }
  return dir;
}

const layers = new WeakMap<Stack, LayerVersion>();

/**
 * Powertools Logger, Metrics and Tracer for every function of the stage, in one layer: the bundles keep them external
 * (infra/lambda-bundle.ts), so they add nothing to any function's bundle. Pure JavaScript: one layer serves arm64
 * and x86_64 alike.
 */
export function observabilityLayer(scope: IConstruct): ILayerVersion {
  let root = Stack.of(scope);
  while (root.nestedStackParent) root = root.nestedStackParent;
  const existing = layers.get(root);
  if (existing) return existing;
  const layer = new LayerVersion(root, 'ObservabilityLayer', {
    code: Code.fromAsset(observabilityLayerDir()),
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    compatibleArchitectures: [Architecture.ARM_64, Architecture.X86_64],
    description:
      'Powertools for AWS Lambda (TypeScript) Logger, Metrics and Tracer with the X-Ray SDK, bundled per package',
  });
  layers.set(root, layer);
  return layer;
}
