// The queue consumers' threads load plain JavaScript, as a Lambda function loads its bundle: each thread would
// otherwise register tsx and compile its handler's TypeScript import graph itself, about 0.4 s of CPU per thread and
// 10 threads per start (measured: a webhook deliverer's import takes 0.6-0.76 s of CPU through tsx, 0.26-0.28 s
// bundled). One esbuild run per process bundles the thread entry and every queue consumer's handler with shared
// chunks, so the entry and the handler share one `shared/deps.ts` (the entry counts the handler's DynamoDB requests
// on it). Packages stay external and resolve from the project's node_modules, which is why the output lives under
// `.local/`; it is stored by a hash of its own bytes, so concurrent starts of the same sources share one copy.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { consumers } from '../../events/consumers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const STORE = join(ROOT, '.local', 'consumer-threads');
const ENTRY = 'scripts/local/consumer-thread-entry.ts';
/** Bundles of older sources unused for a day are removed (a running stack's thread may still need its own). */
const KEEP_OLD_MS = 24 * 60 * 60 * 1000;

export interface ConsumerBundle {
  /** The thread's entry module. */
  entry: URL;
  /** A consumer's handler module, by its entry in the consumer table (`webhooks/deliver-webhook`). */
  handler: (consumerEntry: string) => string;
}

let bundling: Promise<ConsumerBundle> | undefined;

/** Bundles once per process; later calls answer the same bundle. */
export function consumerBundle(): Promise<ConsumerBundle> {
  bundling ??= bundleConsumers();
  return bundling;
}

async function bundleConsumers(): Promise<ConsumerBundle> {
  const handlers = [...new Set(consumers.flatMap((c) => ('queue' in c.source ? [`events/${c.entry}.ts`] : [])))];
  const { outputFiles } = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY, ...handlers],
    outbase: ROOT,
    outdir: 'out',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  const hash = createHash('sha256');
  for (const file of outputFiles) hash.update(relative(ROOT, file.path)).update(file.contents);
  const dir = join(STORE, hash.digest('hex').slice(0, 16));
  if (existsSync(dir)) utimesSync(dir, new Date(), new Date());
  else writeAtomically(dir, outputFiles);
  removeOldBundles(dir);
  const out = (source: string) => join(dir, source.replace(/\.ts$/, '.js'));
  return {
    entry: pathToFileURL(out(ENTRY)),
    handler: (consumerEntry) => pathToFileURL(out(`events/${consumerEntry}.ts`)).href,
  };
}

function writeAtomically(dir: string, files: { path: string; contents: Uint8Array }[]): void {
  mkdirSync(STORE, { recursive: true });
  const partial = mkdtempSync(join(STORE, 'partial-'));
  for (const file of files) {
    const target = join(partial, relative(join(ROOT, 'out'), file.path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another start wrote the same bundle first
  }
}

function removeOldBundles(current: string): void {
  for (const name of readdirSync(STORE)) {
    const path = join(STORE, name);
    if (path !== current && Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS)
      rmSync(path, { recursive: true, force: true });
  }
}
