// The web console adds nothing to the other routes: esbuild's account of each route's bundle (packages left
// external, so only this repository's files and the packages imported are listed) names no console file and no
// import of its UI library; the console's own routes carry only the page module, never the browser code.
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CONSOLE_ROUTES = new Set(['docs.console', 'docs.consoleAsset']);
const CONSOLE_FILE = /^(console\/|shared\/http\/console-page\.ts$)/;

async function bundleInputs() {
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(routes.map((r) => [r.id, join('functions', `${r.entry}.ts`)])),
    outdir: 'out',
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  return Object.values(metafile.outputs)
    .filter((output) => output.entryPoint)
    .map((output) => ({
      id: routes.find((r) => output.entryPoint === join('functions', `${r.entry}.ts`))!.id,
      files: Object.keys(output.inputs),
      packages: output.imports.filter((i) => i.external).map((i) => i.path),
    }));
}

describe('the console in the route bundles', () => {
  it('is in no other route’s bundle, and no route bundles the browser code or Preact', async () => {
    const bundles = await bundleInputs();
    expect(bundles).toHaveLength(routes.length);
    for (const bundle of bundles) {
      const consoleFiles = bundle.files.filter((file) => CONSOLE_FILE.test(file));
      if (CONSOLE_ROUTES.has(bundle.id)) expect(consoleFiles, bundle.id).toEqual(['shared/http/console-page.ts']);
      else expect(consoleFiles, bundle.id).toEqual([]);
      expect(
        bundle.packages.filter((p) => p.startsWith('preact')),
        bundle.id,
      ).toEqual([]);
    }
  }, 60_000);
});
