// What the operator scripts that touch the table and the media bucket share (images:import, migrate): where they run,
// the local stack by default or a deployed stage (`--stage`) with the caller's AWS credentials, its table and bucket
// read from the stack's outputs unless given; and how they exit (0 done, 1 failed, 2 usage error).
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { type Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseStage } from '../infra/stage.ts';
import { s3Client } from '../shared/aws/s3.ts';
import { getDeps } from '../shared/deps.ts';
import { stackOutputs } from './stack-outputs.ts';

export interface MediaTargetOptions {
  stage?: string;
  table?: string;
  bucket?: string;
  dynamodbPort: number;
  awsPort: number;
  mediaPort: number;
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
};

/** The options that choose the target, on `command`. */
export function withMediaTargetOptions(command: Command): Command {
  return command
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
    .addOption(
      new Option('--media-port <port>', 'media front port of the local stack (the URLs reported)')
        .env('MEDIA_LOCAL_PORT')
        .default(4567)
        .argParser(integer),
    );
}

/** Sets the environment getDeps() reads for the chosen target. */
export async function configureMediaTarget(options: MediaTargetOptions): Promise<void> {
  if (options.stage) {
    const stage = parseStage(options.stage);
    const outputs = options.table && options.bucket ? {} : await stackOutputs(stage);
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
    MEDIA_BASE_URL: `http://127.0.0.1:${options.mediaPort}`,
    TABLE_NAME: options.table ?? 'pet-api-local',
    MEDIA_BUCKET: options.bucket ?? 'pet-api-media',
  });
  await assertReachable();
}

/**
 * The table and the bucket answer before any work starts: an unreachable local stack is one failure that says which
 * ports were tried (runScript), not the same connection error once per manifest row or migrated item.
 */
async function assertReachable(): Promise<void> {
  const { ddb, config } = getDeps();
  await Promise.all([
    ddb.send(new DescribeTableCommand({ TableName: config.tableName })),
    s3Client(config).send(new HeadBucketCommand({ Bucket: config.mediaBucket })),
  ]);
}

/** Exit codes of the operator scripts. */
export const EXIT = { failed: 1, usage: 2 } as const;

/** What went wrong, in words that say what to do (an unreachable local stack names the ports to set). */
function explainFailure(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { name?: string }).name;
  const local = !process.argv.includes('--stage');
  if (local && code === 'ECONNREFUSED')
    return `cannot reach the local stack (DynamoDB Local at ${process.env.AWS_ENDPOINT_URL_DYNAMODB}, S3 at ${process.env.AWS_ENDPOINT_URL_S3}).\nStart it with \`npm start\`, or set DYNAMODB_LOCAL_PORT and AWS_LOCAL_PORT (or --dynamodb-port, --aws-port) to its ports.`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs the script's program: a usage error exits 2 (commander has said why), any other failure 1 with its reason. */
export async function runScript(program: Command): Promise<void> {
  try {
    await program.parseAsync();
  } catch (error) {
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : EXIT.usage;
    else {
      console.error(explainFailure(error));
      process.exitCode = EXIT.failed;
    }
  }
}
