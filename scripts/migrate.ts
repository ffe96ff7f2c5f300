// Operator CLI for the one-off data migrations a stage deployed before a change needs (docs/operations.md#data-
// migrations): `npm run migrate -- <migration> [--dry-run]`. Prints the migration's report as JSON on stdout, errors
// on stderr. Exit codes: 0 done (nothing failed), 1 an item failed (reported, the rest migrated; run again once fixed)
// or the run failed, 2 a usage error. Local stack by default; `--stage staging|production` uses the caller's AWS
// credentials and the stage's table and bucket. Re-running is safe: a complete run leaves nothing to change.
import { Command } from 'commander';
import { getDeps } from '../shared/deps.ts';
import { cleanOldUploads } from '../shared/domain/migrations/clean-uploads.ts';
import type { MigrationOptions, MigrationReport } from '../shared/domain/migrations/migration.ts';
import { indexPetMedia } from '../shared/domain/migrations/pet-media-index.ts';
import {
  configureMediaTarget,
  EXIT,
  type MediaTargetOptions,
  runScript,
  withMediaTargetOptions,
} from './media-target.ts';

interface Options extends MediaTargetOptions {
  dryRun?: boolean;
}

const program = new Command('npm run migrate --')
  .description('One-off data migrations for a stage deployed before the change that needs them.')
  .addHelpText(
    'after',
    '\nExit codes: 0 done, 1 an item or the run failed (the rest is done; run again), 2 usage error.',
  )
  .configureHelp({ showGlobalOptions: true })
  .showHelpAfterError()
  .exitOverride();
withMediaTargetOptions(program).option('--dry-run', 'read and count what would change, write nothing');

function migration(
  name: string,
  description: string,
  migrate: (options: MigrationOptions) => Promise<MigrationReport>,
) {
  program
    .command(name)
    .description(description)
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<Options>();
      await configureMediaTarget(options);
      // Each item on stderr as it is done: a long run shows progress, and an interrupted one where it stopped.
      const report = await migrate({
        dryRun: options.dryRun === true,
        onItem: (item, outcome) => console.error(`${item}: ${outcome}`),
      });
      console.log(JSON.stringify(report, null, 2));
      if (report.failed > 0) process.exitCode = EXIT.failed;
    });
}

migration(
  'pet-media-index',
  "give pet media written before the per-kind index keys their kind's gsi1 keys (kind pages of a pet's images)",
  (options) => indexPetMedia(getDeps(), options),
);
migration(
  'clean-uploads',
  'serve uploads stored before clean copies as their metadata-free copy under images/ and delete the originals',
  (options) => cleanOldUploads(getDeps(), options),
);

await runScript(program);
