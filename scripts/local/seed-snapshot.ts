// An in-memory start (no LOCAL_PERSIST) begins with an empty DynamoDB Local and would write the same seed again: the
// reference snapshots and the catalogue's search index, about 18,000 items and ten seconds of DynamoDB Local's CPU,
// most of a start. The first start keeps the table file DynamoDB Local wrote once seeded; later starts run DynamoDB
// Local on a fresh copy of it in a RAM-backed directory (removed at stop), and the seed step, which still runs, finds
// every set at its content version and writes nothing. The copy is keyed by a hash of every source and data file the
// seed step and the table definition import, so a changed data set, key shape or table is seeded afresh.
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** RAM-backed on Linux: a table file on disk would make every write wait for the disk. */
const RAM_DIR = '/dev/shm';
const RUN_DIR_PREFIX = 'pet-api-local-';
/** DynamoDB Local's single database file with `-sharedDb`. */
const DB_FILE = 'shared-local-instance.db';
/** What the snapshot is of: the seed step and the table it writes (stack.ts creates the tables). */
const SEED_MODULES = ['shared/domain/reference/seed.ts', 'shared/domain/images/seed.ts', 'scripts/local/stack.ts'];

export interface SeedSnapshot {
  /** DynamoDB Local's `-dbPath` for this run: a copy of the seeded table, or empty while there is none yet. */
  dbPath: string;
  /** The table came seeded from the snapshot. */
  restored: boolean;
  /** Keeps this run's table as the snapshot: call once the seed step is done, before anything else writes. */
  keep(): void;
  /** Removes this run's copy (at stop). */
  remove(): void;
}

/** This run's table directory, or undefined where there is no RAM-backed directory (the table then stays in memory). */
export async function openSeedSnapshot(root: string, emulator: string): Promise<SeedSnapshot | undefined> {
  if (!writable(RAM_DIR)) return undefined;
  removeAbandonedRuns();
  const store = join(root, '.local', 'seed-snapshot');
  const kept = join(store, `${await seedKey(root, emulator)}.db`);
  const dbPath = mkdtempSync(join(RAM_DIR, `${RUN_DIR_PREFIX}${process.pid}-`));
  const restored = existsSync(kept);
  if (restored) copyFileSync(kept, join(dbPath, DB_FILE));
  const remove = () => rmSync(dbPath, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    dbPath,
    restored,
    keep: () => {
      mkdirSync(store, { recursive: true });
      const partial = `${kept}.${process.pid}`;
      copyFileSync(join(dbPath, DB_FILE), partial);
      renameSync(partial, kept);
      // A snapshot of older sources is of no more use.
      for (const name of readdirSync(store))
        if (name.endsWith('.db') && join(store, name) !== kept) rmSync(join(store, name), { force: true });
    },
    remove,
  };
}

/** Hash of the seed's own sources and data (esbuild's view of their imports) and of the emulator's build. */
export async function seedKey(root: string, emulator: string): Promise<string> {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: SEED_MODULES,
    bundle: true,
    write: false,
    metafile: true,
    outdir: 'out',
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const hash = createHash('sha256')
    .update(emulator)
    .update(readFileSync(join(root, 'package-lock.json')));
  for (const input of Object.keys(metafile.inputs).sort()) hash.update(input).update(readFileSync(join(root, input)));
  return hash.digest('hex').slice(0, 16);
}

/** Copies left by runs that ended without stopping (kill -9): their process is gone. */
function removeAbandonedRuns(): void {
  for (const name of readdirSync(RAM_DIR)) {
    const pid = Number(name.startsWith(RUN_DIR_PREFIX) && name.slice(RUN_DIR_PREFIX.length).split('-')[0]);
    if (pid && !processAlive(pid)) rmSync(join(RAM_DIR, name), { recursive: true, force: true });
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
