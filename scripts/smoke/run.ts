// `npm run smoke -- --base-url <url> --admin-key <key>` or `--stage staging|production`: a short black-box suite over
// HTTP against one stage (docs/operations.md#smoke-test). One line per check, then `N passed, M failed`.
// Exit codes: 0 every check passed, 1 a check failed, 2 a usage error.
import { Command, CommanderError, Option } from 'commander';
import { parseStage, STAGES } from '../../infra/stage.ts';
import { stackOutput } from '../stack-outputs.ts';
import { PHOTO_WAIT_MS, runSmoke, WEBHOOK_WAIT_MS } from './checks.ts';
import { apiAt, REQUEST_TIMEOUT_MS } from './http.ts';
import { Suite } from './suite.ts';

const EXIT = { failed: 1, usage: 2 } as const;

interface Options {
  baseUrl?: string;
  stage?: string;
  adminKey?: string;
  receiver: boolean;
  webhookUrl?: string;
}

const program = new Command('npm run smoke --')
  .description(
    'A black-box smoke test of one stage over HTTP: health, auth, every GET route a new account may read, an account ' +
      'created and deactivated, a vote with its signed webhook, a pet with a photo processed and deleted, the error ' +
      'shape and Pagination-Count. It removes what it made, also after a failed check, and touches nothing else.',
  )
  .option('--base-url <url>', 'the API, with its base path, e.g. http://127.0.0.1:3000/v1')
  .addOption(
    new Option(
      '--stage <stage>',
      'a deployed stage: the URL from the stack output ApiUrl (your AWS credentials)',
    ).choices(STAGES),
  )
  .addOption(
    new Option('--admin-key <key>', "an administrator's API key; operators keep the stage's in the environment").env(
      'PET_API_ADMIN_KEY',
    ),
  )
  .option(
    '--no-receiver',
    "no receiver on this machine (a deployed stage cannot reach it): find the vote's delivery in the delivery log",
  )
  .option(
    '--webhook-url <url>',
    'with --no-receiver, where deliveries go (default: <base-url>/health, which answers 405)',
  )
  .addHelpText(
    'after',
    [
      '',
      `Bounds: each request ${REQUEST_TIMEOUT_MS / 1000} s, the webhook delivery ${WEBHOOK_WAIT_MS / 1000} s, the photo's processing ${PHOTO_WAIT_MS / 1000} s.`,
      'With --stage the URL is the output ApiUrl of the stack PetApi-<stage> and the admin key comes from',
      'PET_API_ADMIN_KEY, where operators keep it (docs/operations.md, "Keys and secrets").',
      'A deployed stage refuses loopback webhook URLs: run it there with --no-receiver.',
      'Exit codes: 0 every check passed, 1 a check failed, 2 usage error.',
    ].join('\n'),
  )
  .showHelpAfterError()
  .exitOverride();

async function main(options: Options): Promise<boolean> {
  if (!options.baseUrl === !options.stage) throw usage('give either --base-url or --stage');
  if (!options.adminKey) throw usage('give --admin-key (or set PET_API_ADMIN_KEY)');
  const baseUrl = options.baseUrl ?? (await stackOutput(parseStage(options.stage), 'ApiUrl'));
  const suite = new Suite((line) => console.log(line));
  console.log(`smoke test of ${baseUrl}`);
  await runSmoke(suite, apiAt(baseUrl), {
    adminKey: options.adminKey,
    receiver: options.receiver,
    webhookUrl: options.webhookUrl ?? `${baseUrl.replace(/\/+$/, '')}/health`,
  });
  console.log(suite.summary());
  return suite.failed === 0;
}

function usage(message: string): CommanderError {
  console.error(`error: ${message}`);
  return new CommanderError(EXIT.usage, 'smoke.usage', message);
}

try {
  program.parse();
  process.exitCode = (await main(program.opts<Options>())) ? 0 : EXIT.failed;
} catch (error) {
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : EXIT.usage;
  else {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = EXIT.failed;
  }
}
