// Operator script: `npm run images:import -- <manifest.json|manifest.csv>` imports an attributed photo set into the
// public library (docs/data.md#importing-an-attributed-photo-set). Every row is validated first; with any refused row
// nothing is imported unless `--skip-invalid`. Prints a JSON report; exit 0 when every row is in the library, 1 when a
// row was refused or failed, 2 on a usage error. `--remove <imageId>` takes an imported photo out again. Local stack by
// default; `--stage` uses AWS credentials.
import { readFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { Command } from 'commander';
import { getDeps } from '../shared/deps.ts';
import { removeImportedPhoto } from '../shared/domain/images/imports.ts';
import { committedVocabulary, importPhotos, refuseUnknownTags } from './images/import.ts';
import { readManifest } from './images/manifest.ts';
import {
  configureMediaTarget,
  EXIT,
  type MediaTargetOptions,
  runScript,
  withMediaTargetOptions,
} from './media-target.ts';

interface Options extends MediaTargetOptions {
  skipInvalid?: boolean;
  dryRun?: boolean;
  remove?: string;
}

const program = withMediaTargetOptions(new Command('npm run images:import --'))
  .description('Import an attributed photo set (JSON or CSV manifest) into the public library.')
  .argument('[manifest]', 'a .json (array of rows) or .csv (header row) file; paths in it are relative to it')
  .option('--skip-invalid', 'import the valid rows even when others are refused')
  .option('--dry-run', 'validate the manifest and report, import nothing')
  .option('--remove <imageId>', 'take an imported photo out of the library (search, table and bucket) instead')
  .addHelpText(
    'after',
    '\nExit codes: 0 every row imported (or already there), 1 a row refused or failed, 2 usage error.',
  )
  .showHelpAfterError()
  .exitOverride()
  .action(async (manifestPath: string | undefined, options: Options) => {
    if (options.remove) {
      await configureMediaTarget(options);
      const outcome = await removeImportedPhoto(getDeps(), options.remove);
      console.log(JSON.stringify({ id: options.remove, outcome }, null, 2));
      if (outcome === 'missing') process.exitCode = EXIT.failed;
      return;
    }
    if (!manifestPath) {
      console.error('a manifest (or --remove <imageId>) is required; --help shows the usage');
      process.exitCode = EXIT.usage;
      return;
    }
    const format = extname(manifestPath).toLowerCase() === '.csv' ? 'csv' : 'json';
    const vocabulary = committedVocabulary();
    const manifest = refuseUnknownTags(readManifest(await readFile(manifestPath, 'utf8'), format), vocabulary);
    const refused = manifest.refused;
    if (options.dryRun || (refused.length > 0 && !options.skipInvalid)) {
      console.log(JSON.stringify({ valid: manifest.rows.length, refused, imported: false }, null, 2));
      if (refused.length > 0) process.exitCode = EXIT.failed;
      return;
    }
    await configureMediaTarget(options);
    const report = await importPhotos(getDeps(), manifest, { manifestDir: dirname(manifestPath), vocabulary });
    console.log(JSON.stringify({ ...report, refused }, null, 2));
    if (refused.length > 0 || report.failed.length > 0) process.exitCode = EXIT.failed;
  });

await runScript(program);
