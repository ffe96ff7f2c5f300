// `npm run console:build`: bundles the web console (console/src) with esbuild into content-hashed files in
// console/dist and writes the manifest GET /v1/console reads. `npm start` builds it too; `npm run synth` and
// `npm run deploy` build it before the CDK app copies the folder into the console functions' package.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { CONSOLE_DIST, CONSOLE_MANIFEST, type ConsoleManifest } from '../../shared/http/console-page.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ConsoleBuild {
  manifest: ConsoleManifest;
  /** esbuild's account of the bundle: what each output holds. */
  metafile: Metafile;
}

/**
 * Writes the bundle into `outdir` (default console/dist). Files are named by their content, so rebuilding the same
 * sources writes the same names; the manifest is replaced in one rename, so a running service never reads half of it.
 */
export async function buildConsole(outdir = join(ROOT, CONSOLE_DIST)): Promise<ConsoleBuild> {
  mkdirSync(outdir, { recursive: true });
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: ['console/src/main.tsx'],
    outdir,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const files = Object.keys(metafile.outputs).map((output) => basename(output));
  const pick = (extension: string) => {
    const found = files.find((file) => file.endsWith(extension));
    if (!found) throw new Error(`The console build wrote no ${extension} file`);
    return found;
  };
  const manifest: ConsoleManifest = { script: pick('.js'), style: pick('.css'), files };
  const temporary = join(outdir, `${CONSOLE_MANIFEST}.${process.pid}`);
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporary, join(outdir, CONSOLE_MANIFEST));
  return { manifest, metafile };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  // A clean folder for a deployment: files of earlier builds would only be copied along.
  rmSync(join(ROOT, CONSOLE_DIST), { recursive: true, force: true });
  const { manifest, metafile } = await buildConsole();
  for (const file of manifest.files) {
    const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(file));
    console.log(`${CONSOLE_DIST}/${file}  ${((output?.[1].bytes ?? 0) / 1024).toFixed(1)} KB`);
  }
}
