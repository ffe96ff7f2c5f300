// Operator CLI: `npm run accounts -- <command> …` (`--help` on any command). Prints JSON on stdout, errors on stderr.
// Exit codes: 0 done, 1 the operation failed (invalid input, not found, service unreachable), 2 a usage error.
// Local stack by default; `--stage staging|production` uses the caller's AWS credentials and the deployed table.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import * as z from 'zod/mini';
import { parseStage } from '../infra/stage.ts';
import { stackOutput } from './stack-outputs.ts';
import { listAccounts } from '../shared/domain/accounts/store.ts';
import { getDeps } from '../shared/deps.ts';
import { accountChangesSchema, newAccountSchema } from '../shared/domain/accounts/input.ts';
import { createAccount, revokeApiKeys, rotateApiKey, updateAccount } from '../shared/domain/accounts/service.ts';
import { MAX_KEY_GRACE_SECONDS } from '../shared/domain/accounts/account.ts';
import { accountOverview, requireAccount } from '../shared/domain/accounts/overview.ts';
import { quotaOf } from '../shared/domain/accounts/quota.ts';
import { disableWebhook, listWebhooks } from '../shared/domain/webhooks/endpoints.ts';
import { presentWebhook } from '../shared/domain/webhooks/webhook.ts';
import { AppError } from '../shared/errors.ts';
import { describeIssue } from '../shared/http/validation.ts';

const EXIT = { failed: 1, usage: 2 } as const;
const DEFAULT_DYNAMODB_LOCAL_PORT = 8000;

interface GlobalOptions {
  stage?: string;
  table?: string;
  dynamodbPort: number;
}

/** Where the operation runs; kept for error messages that say what was tried. */
let target = { description: '', local: true, dynamoDbPort: DEFAULT_DYNAMODB_LOCAL_PORT };

async function configureTarget(options: GlobalOptions): Promise<void> {
  if (options.stage) {
    const stage = parseStage(options.stage);
    process.env.TABLE_NAME = options.table ?? (await stackOutput(stage, 'TableName'));
    process.env.STAGE = stage;
    target = { description: `table ${process.env.TABLE_NAME} (${stage})`, local: false, dynamoDbPort: 0 };
    return;
  }
  const endpoint = `http://127.0.0.1:${options.dynamodbPort}`;
  Object.assign(process.env, {
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    TABLE_NAME: options.table ?? 'pet-api-local',
  });
  target = { description: `DynamoDB Local at ${endpoint}`, local: true, dynamoDbPort: options.dynamodbPort };
}

interface AccountFlags {
  name?: string;
  email?: string;
  role?: string;
  status?: string;
  features?: string[];
  quota?: number;
  plan?: string;
}

/** The CLI takes the same fields as the admin API, validated by the same schemas. */
function validated<S extends z.ZodMiniType>(schema: S, flags: AccountFlags): z.output<S> {
  const input = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  const result = z.safeParse(schema, input, { reportInput: true });
  if (!result.success) throw new Error(result.error.issues.flatMap((i) => describeIssue(i, 'body')).join('\n'));
  return result.data;
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
};
const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

function withAccountFlags(command: Command): Command {
  return command
    .option('--name <name>', 'display name')
    .option('--email <email>', "the owner's e-mail (disable notices go there)")
    .option('--role <role>', 'user, vet (decides body condition reviews) or admin')
    .option('--status <status>', 'active or inactive (an inactive account is refused: 401)')
    .option('--features <list>', 'comma-separated features, e.g. full_breed_schema,body_condition', list)
    .option('--quota <n>', 'monthly upload quota', integer)
    .option('--plan <plan>', 'request-rate plan: free, standard or pro');
}

/** Runs one command against the configured target and prints its result as JSON. */
function run<A extends unknown[]>(operation: (...args: A) => Promise<unknown>) {
  return async (...args: A) => {
    const command = args.at(-1) as Command;
    await configureTarget(command.optsWithGlobals<GlobalOptions>());
    console.log(JSON.stringify(await operation(...args), null, 2));
  };
}

const program = new Command('npm run accounts --')
  .description('Operator CLI for Pet API accounts. Prints JSON on stdout; errors go to stderr.')
  .addHelpText('after', '\nExit codes: 0 done, 1 the operation failed, 2 usage error.')
  .option('--stage <stage>', 'a deployed stage (staging|production), with your AWS credentials; default: local')
  .option('--table <name>', 'the table (default: pet-api-local, or the stage stack output TableName)')
  .addOption(
    new Option('--dynamodb-port <port>', 'DynamoDB Local port of the local stack')
      .env('DYNAMODB_LOCAL_PORT')
      .default(DEFAULT_DYNAMODB_LOCAL_PORT)
      .argParser(integer),
  )
  .configureHelp({ showGlobalOptions: true })
  .showHelpAfterError()
  .exitOverride();

withAccountFlags(
  program.command('create').description('create an account; prints it with its API key (shown once)'),
).action(run((flags: AccountFlags) => createAccount(getDeps(), validated(newAccountSchema, flags))));

withAccountFlags(
  program.command('update').description('change the given fields of an account').argument('<accountId>'),
).action(
  run((accountId: string, flags: AccountFlags) =>
    updateAccount(getDeps(), accountId, validated(accountChangesSchema, flags)),
  ),
);

program
  .command('list')
  .description('every account, oldest first')
  .action(run(() => listAccounts(getDeps())));

program
  .command('rotate-key')
  .description('give an account a new API key; the old one works for the grace period, then stops (new key shown once)')
  .argument('<accountId>')
  .option('--grace-seconds <n>', `how long the old key keeps working, 0 to ${MAX_KEY_GRACE_SECONDS}`, integer, 0)
  .action(
    run((accountId: string, options: { graceSeconds: number }) => {
      if (options.graceSeconds > MAX_KEY_GRACE_SECONDS)
        throw new Error(`--grace-seconds must be at most ${MAX_KEY_GRACE_SECONDS}`);
      return rotateApiKey(getDeps(), accountId, options.graceSeconds);
    }),
  );

program
  .command('revoke-key')
  .description('stop every key of an account at once (one in a grace period too); prints the new key (shown once)')
  .argument('<accountId>')
  .action(run((accountId: string) => revokeApiKeys(getDeps(), accountId)));

program
  .command('quota')
  .description("an account's monthly upload quota, usage and reset time")
  .argument('<accountId>')
  .action(run(async (accountId: string) => quotaOf(getDeps(), await requireAccount(getDeps(), accountId))));

program
  .command('overview')
  .description('an account with its flags, quota and counts')
  .argument('<accountId>')
  .action(run((accountId: string) => accountOverview(getDeps(), accountId)));

program
  .command('webhooks')
  .description("an account's webhook endpoints")
  .argument('<accountId>')
  .action(
    run(async (accountId: string) => {
      await requireAccount(getDeps(), accountId);
      return (await listWebhooks(getDeps(), accountId)).map(presentWebhook);
    }),
  );

program
  .command('disable-webhook')
  .description('stop deliveries to one endpoint of an account (it stays listed, marked disabled)')
  .argument('<accountId>')
  .argument('<webhookId>')
  .option('--reason <text>', 'shown to the account as disabled_reason', 'disabled by an operator')
  .action(
    run(async (accountId: string, webhookId: string, options: { reason: string }) =>
      presentWebhook(await disableWebhook(getDeps(), accountId, webhookId, options.reason)),
    ),
  );

/** What went wrong, in words that say what to do. */
function explain(error: unknown): string {
  if (error instanceof AppError) return `${error.status}: ${[error.messages].flat().join('\n')}`;
  const code = (error as { code?: string; name?: string }).code ?? (error as { name?: string }).name;
  if (target.local && (code === 'ECONNREFUSED' || code === 'TimeoutError'))
    return [
      `cannot reach ${target.description} (${code}).`,
      'Start the service with `npm start`, or, if it runs on another port, set DYNAMODB_LOCAL_PORT=<port>',
      `(or pass --dynamodb-port <port>; the port tried was ${target.dynamoDbPort}).`,
    ].join('\n');
  if (code === 'ResourceNotFoundException')
    return `${target.description} has no table ${process.env.TABLE_NAME}: is that the Pet API's database? (--table sets another)`;
  return error instanceof Error ? error.message : String(error);
}

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version requests are not failures; commander has already printed its message for the others.
    process.exitCode = error.exitCode === 0 ? 0 : EXIT.usage;
  } else {
    console.error(explain(error));
    process.exitCode = EXIT.failed;
  }
}
