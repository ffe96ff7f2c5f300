// Operator CLI: `npm run accounts -- create|update|list …`, JSON on stdout.
// Local stack by default; `--stage staging|production` uses the caller's AWS credentials and the deployed table.
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import * as z from 'zod/mini';
import { listAccounts } from '../shared/domain/accounts/store.ts';
import { getDeps } from '../shared/deps.ts';
import { accountChangesSchema, newAccountSchema } from '../shared/domain/accounts/input.ts';
import { createAccount, updateAccount } from '../shared/domain/accounts/service.ts';
import { AppError } from '../shared/errors.ts';
import { describeIssue } from '../shared/http/validation.ts';
import { parseStage } from '../infra/stage.ts';

const USAGE = `usage:
  npm run accounts -- create --name NAME [--email E] [--role admin|user] [--status active|inactive] [--features a,b] [--quota N]
  npm run accounts -- update ACCOUNT_ID [--name …] [--email …] [--role …] [--status …] [--features …] [--quota N]
  npm run accounts -- list
options: --stage staging|production (deployed; needs AWS credentials), --table NAME (explicit table)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    status: { type: 'string' },
    features: { type: 'string' },
    quota: { type: 'string' },
    stage: { type: 'string' },
    table: { type: 'string' },
  },
});

async function configureTarget(): Promise<void> {
  if (values.stage) {
    const stage = parseStage(values.stage);
    process.env.TABLE_NAME = values.table ?? (await deployedTableName(`PetApi-${stage}`));
    process.env.STAGE = stage;
    return;
  }
  const dynamoDbPort = process.env.DYNAMODB_LOCAL_PORT ?? '8000';
  Object.assign(process.env, {
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${dynamoDbPort}`,
    TABLE_NAME: values.table ?? 'pet-api-local',
  });
}

async function deployedTableName(stackName: string): Promise<string> {
  const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
  const output = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'TableName')?.OutputValue;
  if (!output) throw new Error(`stack ${stackName} has no TableName output`);
  return output;
}

/** The CLI takes the same fields as the admin API, validated by the same schemas. */
function fieldsFromFlags(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      name: values.name,
      email: values.email,
      role: values.role,
      status: values.status,
      features: values.features
        ?.split(',')
        .map((f) => f.trim())
        .filter(Boolean),
      quota: values.quota === undefined ? undefined : Number(values.quota),
    }).filter(([, v]) => v !== undefined),
  );
}

function validated<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input, { reportInput: true });
  if (!result.success) throw new Error(result.error.issues.flatMap((i) => describeIssue(i, 'body')).join('\n'));
  return result.data;
}

async function main(): Promise<unknown> {
  const [command, accountId] = positionals;
  await configureTarget();
  const deps = getDeps();
  switch (command) {
    case 'create':
      return createAccount(deps, validated(newAccountSchema, fieldsFromFlags()));
    case 'update':
      if (!accountId) throw new Error(`update needs an account id\n${USAGE}`);
      return updateAccount(deps, accountId, validated(accountChangesSchema, fieldsFromFlags()));
    case 'list':
      return listAccounts(deps);
    default:
      throw new Error(USAGE);
  }
}

try {
  console.log(JSON.stringify(await main(), null, 2));
} catch (error) {
  const message =
    error instanceof AppError
      ? `${error.status}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  console.error(message);
  process.exitCode = 1;
}
