import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { consumers } from '../../events/consumers.ts';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import { powertoolsLayerDir } from '../../infra/constructs/powertools-layer.ts';
import {
  LAMBDA_BUNDLE,
  POWERTOOLS_LAYER_MODULES,
  POWERTOOLS_LAYER_PACKAGES,
  routeExternalModules,
} from '../../infra/lambda-bundle.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** What the functions' bundles leave to the Powertools layer: every import of a layer package, with its subpath. */
async function layerImportsOfEveryFunction(): Promise<Set<string>> {
  const entries = [
    ...[...routes, fallbackRoute].map((route) => `functions/${route.entry}.ts`),
    ...consumers.map((consumer) => `events/${consumer.entry}.ts`),
    'events/deploy/load-reference-data.ts',
  ];
  const { metafile } = await build({
    entryPoints: entries.map((entry) => join(ROOT, entry)),
    bundle: true,
    write: false,
    outdir: join(ROOT, '.bench', 'layer-test'),
    platform: 'node',
    format: 'esm',
    target: LAMBDA_BUNDLE.target,
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    // Every module some function keeps external; all but the Powertools packages come from layers of their own.
    external: [...POWERTOOLS_LAYER_MODULES, ...[...routes, fallbackRoute].flatMap(routeExternalModules), 'sharp'],
    metafile: true,
    logLevel: 'silent',
  });
  const layered = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const { path, external } of output.imports)
      if (external && POWERTOOLS_LAYER_MODULES.some((name) => path === name || path.startsWith(`${name}/`)))
        layered.add(path);
  return layered;
}

describe('the Powertools layer', () => {
  it('holds, as a loadable file, every Powertools module and subpath any function imports', async () => {
    const modules = join(powertoolsLayerDir(), 'nodejs', 'node_modules');
    const imported = await layerImportsOfEveryFunction();
    // Logger, Metrics and Tracer, which every function imports (the Tracer when first sampled), are among them
    expect(imported).toContain('@aws-lambda-powertools/logger');
    expect(imported).toContain('@aws-lambda-powertools/metrics');
    expect(imported).toContain('@aws-lambda-powertools/tracer');
    for (const path of imported) {
      const name = POWERTOOLS_LAYER_MODULES.find((n) => path === n || path.startsWith(`${n}/`))!;
      const subpath = path === name ? '.' : `.${path.slice(name.length)}`;
      expect(POWERTOOLS_LAYER_PACKAGES[name] as readonly string[], path).toContain(subpath);
      const manifest = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as {
        exports: Record<string, string>;
      };
      const file = join(modules, name, manifest.exports[subpath]!);
      expect(existsSync(file), path).toBe(true);
      // loads from the layer's folder alone, as from /opt/nodejs/node_modules deployed
      expect(Object.keys(await import(file)).length, path).toBeGreaterThan(0);
    }
  });
});
