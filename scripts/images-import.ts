// Operator script: `npm run images:import -- <manifest.json|manifest.csv>` imports an attributed photo set into the
// public library (docs/data.md#importing-an-attributed-photo-set). Every row is validated first; with any refused row
// nothing is imported unless `--skip-invalid`. Prints a JSON report; exit 0 when every row is in the library, 1 when a
// row was refused or failed, 2 on a usage error. `--remove <imageId>` takes an imported photo out again. Local stack by
// default; `--stage` uses AWS credentials.
import { readFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseStage } from '../infra/stage.ts';
import { getDeps } from '../shared/deps.ts';
import { removeImportedPhoto } from '../shared/domain/images/imports.ts';
import { committedVocabulary, importPhotos, refuseUnknownTags } from './images/import.ts';
import { readManifest } from './images/manifest.ts';

const EXIT = { failed: 1, usage: 2 } as const;

interface Options {
  stage?: string;
  table?: string;
  bucket?: string;
  dynamodbPort: number;
  awsPort: number;
  skipInvalid?: boolean;
  dryRun?: boolean;
  remove?: string;
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
};

async function stackOutputs(stackName: string): Promise<Record<string, string>> {
  const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
  return Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
}

async function configureTarget(options: Options): Promise<void> {
  if (options.stage) {
    const stage = parseStage(options.stage);
    const outputs = options.table && options.bucket ? {} : await stackOutputs(`PetApi-${stage}`);
    Object.assign(process.env, {
      STAGE: stage,
      TABLE_NAME: options.table ?? outputs.TableName,
      MEDIA_BUCKET: options.bucket ?? outputs.MediaBucketName,
      ...(outputs.MediaUrl && { MEDIA_BASE_URL: outputs.MediaUrl }),
    });
    return;
  }
  Object.assign(process.env, {
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${options.dynamodbPort}`,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${options.awsPort}`,
    MEDIA_BASE_URL: `http://127.0.0.1:${options.awsPort}/${options.bucket ?? 'pet-api-media'}`,
    TABLE_NAME: options.table ?? 'pet-api-local',
    MEDIA_BUCKET: options.bucket ?? 'pet-api-media',
  });
}

const program = new Command('npm run images:import --')
  .description('Import an attributed photo set (JSON or CSV manifest) into the public library.')
  .argument('[manifest]', 'a .json (array of rows) or .csv (header row) file; paths in it are relative to it')
  .option('--stage <stage>', 'a deployed stage (staging|production), with your AWS credentials; default: local')
  .option('--table <name>', 'the table (default: pet-api-local, or the stage stack output TableName)')
  .option('--bucket <name>', 'the media bucket (default: pet-api-media, or the stack output MediaBucketName)')
  .addOption(
    new Option('--dynamodb-port <port>', 'DynamoDB Local port of the local stack')
      .env('DYNAMODB_LOCAL_PORT')
      .default(8000)
      .argParser(integer),
  )
  .addOption(
    new Option('--aws-port <port>', 'fauxqs (S3) port of the local stack')
      .env('AWS_LOCAL_PORT')
      .default(4566)
      .argParser(integer),
  )
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
      await configureTarget(options);
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
    await configureTarget(options);
    const report = await importPhotos(getDeps(), manifest, { manifestDir: dirname(manifestPath), vocabulary });
    console.log(JSON.stringify({ ...report, refused }, null, 2));
    if (refused.length > 0 || report.failed.length > 0) process.exitCode = EXIT.failed;
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : EXIT.usage;
  else {
    const code = (error as { code?: string }).code ?? (error as { name?: string }).name;
    const local = !process.argv.includes('--stage');
    console.error(
      local && code === 'ECONNREFUSED'
        ? `cannot reach the local stack (DynamoDB Local at ${process.env.AWS_ENDPOINT_URL_DYNAMODB}, S3 at ${process.env.AWS_ENDPOINT_URL_S3}).\nStart it with \`npm start\`, or set DYNAMODB_LOCAL_PORT and AWS_LOCAL_PORT (or --dynamodb-port, --aws-port) to its ports.`
        : error instanceof Error
          ? error.message
          : String(error),
    );
    process.exitCode = EXIT.failed;
  }
}
