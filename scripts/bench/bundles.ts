// Bundles every route exactly as the CDK app does and compares each with a bundle of its AWS SDK clients alone.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import type { RouteDef } from '../../shared/http/route-def.ts';
import { observabilityLayerDir } from '../../infra/constructs/observability-layer.ts';
import { LAMBDA_BUNDLE, OBSERVABILITY_PACKAGES } from '../../infra/lambda-bundle.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, '.bench', 'bundles');

/** The CDK app's bundling options, for esbuild directly. */
const LAMBDA_BUILD: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: LAMBDA_BUNDLE.format,
  target: LAMBDA_BUNDLE.target,
  minify: LAMBDA_BUNDLE.minify,
  sourcemap: 'external',
  sourcesContent: LAMBDA_BUNDLE.sourcesContent,
  mainFields: [...LAMBDA_BUNDLE.mainFields],
  banner: { js: LAMBDA_BUNDLE.banner },
  // In the observability layer deployed; here .bench/bundles/node_modules is that layer's folder (bundleObservability).
  external: [...OBSERVABILITY_PACKAGES],
  metafile: true,
  logLevel: 'silent',
};

/** What each SDK package contributes when a handler uses it: the client its baseline constructs. */
const SDK_CLIENTS: Record<string, string> = {
  '@aws-sdk/client-dynamodb': "import{DynamoDBClient}from'@aws-sdk/client-dynamodb';",
  '@aws-sdk/lib-dynamodb': "import{DynamoDBDocumentClient}from'@aws-sdk/lib-dynamodb';",
  '@aws-sdk/client-s3': "import{S3Client}from'@aws-sdk/client-s3';",
  '@aws-sdk/client-sqs': "import{SQSClient}from'@aws-sdk/client-sqs';",
};
const SDK_CONSTRUCT: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'new DynamoDBClient({})',
  '@aws-sdk/lib-dynamodb': 'DynamoDBDocumentClient.from(new DynamoDBClient({}))',
  '@aws-sdk/client-s3': 'new S3Client({})',
  '@aws-sdk/client-sqs': 'new SQSClient({})',
};

export interface BundleResult {
  route: RouteDef;
  sdkPackages: string[];
  bytes: number;
  baselineBytes: number;
  file: string;
  baselineFile: string;
}

function sdkPackagesOf(metafile: Metafile): string[] {
  const used = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /node_modules\/(@aws-sdk\/(?:client-[a-z0-9-]+|lib-dynamodb))\//.exec(input);
    if (match && SDK_CLIENTS[match[1]!]) used.add(match[1]!);
  }
  // The document client needs the base client it wraps.
  if (used.has('@aws-sdk/lib-dynamodb')) used.add('@aws-sdk/client-dynamodb');
  return [...used].sort();
}

export async function bundleRoutes(): Promise<BundleResult[]> {
  mkdirSync(OUT, { recursive: true });
  const results: BundleResult[] = [];
  const baselines = new Map<string, { file: string; bytes: number }>();
  for (const route of [...routes, fallbackRoute]) {
    const file = join(OUT, route.id, 'index.mjs');
    const { metafile } = await build({
      ...LAMBDA_BUILD,
      entryPoints: [join(ROOT, 'functions', `${route.entry}.ts`)],
      outfile: file,
    });
    const sdkPackages = sdkPackagesOf(metafile!);
    const key = sdkPackages.join('+') || 'none';
    if (!baselines.has(key)) baselines.set(key, await bundleBaseline(key, sdkPackages));
    const baseline = baselines.get(key)!;
    results.push({
      route,
      sdkPackages,
      bytes: statSync(file).size,
      baselineBytes: baseline.bytes,
      file,
      baselineFile: baseline.file,
    });
  }
  return results;
}

async function bundleBaseline(key: string, packages: string[]) {
  const dir = join(OUT, `_sdk-${key.replaceAll(/[^a-z0-9+]/g, '_')}`);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.mjs');
  const lead = packages.filter((p) => p !== '@aws-sdk/client-dynamodb' || !packages.includes('@aws-sdk/lib-dynamodb'));
  writeFileSync(
    entry,
    `${packages.map((p) => SDK_CLIENTS[p]).join('')}\nexport const clients=[${lead.map((p) => SDK_CONSTRUCT[p]).join(',')}];\n`,
  );
  const file = join(dir, 'index.mjs');
  await build({ ...LAMBDA_BUILD, entryPoints: [entry], outfile: file, nodePaths: [join(ROOT, 'node_modules')] });
  return { file, bytes: statSync(file).size };
}

export interface ObservabilityProbe {
  /** Imports and constructs Logger and Metrics from the layer's folder: what every cold start loads. */
  file: string;
  /** Imports and constructs the Tracer from the layer's folder: what the first sampled invocation loads. */
  tracerFile: string;
  /** The layer's packages bundled into a function instead: what they would add to every bundle. */
  bundledBytes: number;
}

/**
 * Makes the route bundles resolve Powertools from the observability layer's folder (one file per package), as
 * /opt/nodejs/node_modules deployed, and builds probes of what the layer costs on its own.
 */
export async function bundleObservability(): Promise<ObservabilityProbe> {
  const layerModules = join(observabilityLayerDir(), 'nodejs', 'node_modules');
  rmSync(join(OUT, 'node_modules'), { recursive: true, force: true });
  symlinkSync(layerModules, join(OUT, 'node_modules'));
  const dir = join(OUT, '_observability');
  mkdirSync(dir, { recursive: true });
  const probe = async (name: string, contents: string, external = true) => {
    const entry = join(dir, `${name}.entry.mjs`);
    writeFileSync(entry, contents);
    const file = join(dir, `${name}.mjs`);
    await build({
      ...LAMBDA_BUILD,
      entryPoints: [entry],
      outfile: file,
      nodePaths: [join(ROOT, 'node_modules')],
      ...(!external && { external: [] }),
    });
    return file;
  };
  const logging =
    "import{Logger}from'@aws-lambda-powertools/logger';import{Metrics}from'@aws-lambda-powertools/metrics';";
  const tracing = "import{Tracer}from'@aws-lambda-powertools/tracer';";
  return {
    file: await probe('logger-metrics', `${logging}export const tools=[new Logger(),new Metrics()];\n`),
    tracerFile: await probe('tracer', `${tracing}export const tracer=new Tracer();\n`),
    bundledBytes: statSync(
      await probe('bundled', `${logging}${tracing}export const t=[new Logger(),new Metrics(),new Tracer()];\n`, false),
    ).size,
  };
}

/** Median import time of a bundle in fresh Node processes (module load + top-level construction). */
export function importTimes(files: string[], samples: number): Map<string, number[]> {
  const times = new Map<string, number[]>(files.map((f) => [f, []]));
  const probe =
    'const t=performance.now();await import(process.argv[1]);process.stdout.write(String(performance.now()-t));';
  for (let i = 0; i < samples; i++) {
    // Interleaved and shuffled so machine noise falls on every bundle alike.
    for (const file of shuffle([...files])) {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe, file], {
        encoding: 'utf8',
        env: { ...process.env, AWS_REGION: 'us-east-1', TABLE_NAME: 'bench' },
      });
      if (run.status !== 0) throw new Error(`import of ${file} failed: ${run.stderr}`);
      times.get(file)!.push(Number(run.stdout));
    }
  }
  return times;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
