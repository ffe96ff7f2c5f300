// Bundles every route exactly as the CDK app does and compares each with a bundle of its AWS SDK clients alone.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import type { RouteDef } from '../../shared/http/route-def.ts';
import { packageDir } from '../../infra/constructs/layer-assets.ts';
import { powertoolsLayerDir } from '../../infra/constructs/powertools-layer.ts';
import { LAMBDA_BUNDLE, POWERTOOLS_LAYER_MODULES, routeExternalModules } from '../../infra/lambda-bundle.ts';

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
  // In the Powertools layer deployed; here .bench/bundles/node_modules holds that layer's packages (bundleLayers).
  external: [...POWERTOOLS_LAYER_MODULES],
  metafile: true,
  logLevel: 'silent',
};

/** Every SDK client a handler may hold, by package: the class its baseline imports and constructs. */
const SDK_CLIENT_CLASSES: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'DynamoDBClient',
  '@aws-sdk/lib-dynamodb': 'DynamoDBDocumentClient',
  '@aws-sdk/client-s3': 'S3Client',
  '@aws-sdk/client-sqs': 'SQSClient',
  '@aws-sdk/client-kms': 'KMSClient',
  '@aws-sdk/client-bedrock-runtime': 'BedrockRuntimeClient',
  '@aws-sdk/client-sesv2': 'SESv2Client',
  '@aws-sdk/client-rekognition': 'RekognitionClient',
};
const sdkImport = (pkg: string) => `import{${SDK_CLIENT_CLASSES[pkg]}}from'${pkg}';`;
const sdkConstruct = (pkg: string) =>
  pkg === '@aws-sdk/lib-dynamodb'
    ? 'DynamoDBDocumentClient.from(new DynamoDBClient({}))'
    : `new ${SDK_CLIENT_CLASSES[pkg]}({})`;

export interface BundleResult {
  route: RouteDef;
  sdkPackages: string[];
  bytes: number;
  baselineBytes: number;
  file: string;
  baselineFile: string;
}

/** The SDK clients whose code is in the bundle (inputs tree-shaken to nothing, such as imported types, do not count). */
function sdkPackagesOf(metafile: Metafile): string[] {
  const used = new Set<string>();
  const [output] = Object.values(metafile.outputs).filter((o) => o.entryPoint);
  for (const [input, { bytesInOutput }] of Object.entries(output!.inputs)) {
    if (bytesInOutput === 0) continue;
    const match = /node_modules\/(@aws-sdk\/(?:client-[a-z0-9-]+|lib-dynamodb))\//.exec(input);
    if (!match) continue;
    if (!SDK_CLIENT_CLASSES[match[1]!]) throw new Error(`${match[1]} is bundled: add its client to SDK_CLIENT_CLASSES`);
    used.add(match[1]!);
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
      // Exactly the CDK app's externals (infra/constructs/api-routes.ts): sharp comes from the sharp layer.
      external: [...POWERTOOLS_LAYER_MODULES, ...routeExternalModules(route)],
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
    `${packages.map(sdkImport).join('')}\nexport const clients=[${lead.map(sdkConstruct).join(',')}];\n`,
  );
  const file = join(dir, 'index.mjs');
  await build({ ...LAMBDA_BUILD, entryPoints: [entry], outfile: file, nodePaths: [join(ROOT, 'node_modules')] });
  return { file, bytes: statSync(file).size };
}

export interface LayerProbe {
  /** Imports and constructs Logger and Metrics from the layer's folder: what every cold start loads. */
  file: string;
  /** Imports and constructs the Tracer from the layer's folder: what the first sampled invocation loads. */
  tracerFile: string;
  /** Logger, Metrics and Tracer bundled into a function instead: what they would add to every bundle. */
  bundledBytes: number;
  /** The layer's files (every package, subpath and shared chunk). */
  layerBytes: number;
}

/**
 * Makes the route bundles resolve what they keep external as deployed: Powertools from the Powertools layer's folder
 * (/opt/nodejs/node_modules deployed), sharp from its package (the sharp layer's copy of it), all in
 * .bench/bundles/node_modules. Builds probes of what the layer costs on its own.
 */
export async function bundleLayers(): Promise<LayerProbe> {
  const layerModules = join(powertoolsLayerDir(), 'nodejs', 'node_modules');
  const modules = join(OUT, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  for (const [name, source] of [
    ...POWERTOOLS_LAYER_MODULES.map((name) => [name, join(layerModules, name)]),
    ['sharp', packageDir('sharp')],
  ] as const) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(source, join(modules, name));
  }
  const dir = join(OUT, '_powertools');
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
  const bytesOf = (path: string): number =>
    readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.mjs'))
      .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  return {
    file: await probe('logger-metrics', `${logging}export const tools=[new Logger(),new Metrics()];\n`),
    tracerFile: await probe('tracer', `${tracing}export const tracer=new Tracer();\n`),
    bundledBytes: statSync(
      await probe('bundled', `${logging}${tracing}export const t=[new Logger(),new Metrics(),new Tracer()];\n`, false),
    ).size,
    layerBytes: bytesOf(layerModules),
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
