// `npm run scale -- [options]`: the capacity model's report for a traffic mix (docs/scale.md). Exit 2 on a usage error.
import { Command, InvalidArgumentError, Option } from 'commander';
import { PLAN_NAMES } from '../../shared/domain/accounts/plans.ts';
import { DEFAULT_MIX, type Mix } from './model.ts';
import { scaleReport } from './report.ts';

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/** `family=share,…` with shares as fractions or percentages; they must sum to 1 (or 100). */
function shares(value: string): Record<string, number> {
  const entries = value.split(',').map((part) => {
    const [id, share] = part.split('=');
    const n = Number(share);
    if (!id?.trim() || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`"${part}" is not family=share`);
    return [id.trim(), n] as const;
  });
  const total = entries.reduce((t, [, n]) => t + n, 0);
  if (total <= 0) throw new InvalidArgumentError('the shares sum to zero');
  return Object.fromEntries(entries.map(([id, n]) => [id, n / total]));
}

/** The program; `print` receives the report (the test collects it). */
export function scaleProgram(print: (text: string) => void): Command {
  return new Command('npm run scale --')
    .description('Capacity model of one deployed stage: hot keys, concurrency, first limits, cost per million.')
    .option('--rate <n>', 'requests a second offered to the stage', positive, DEFAULT_MIX.rate)
    .option('--mix <shares>', 'family=share,… (e.g. "image search=40,votes=60")', shares, DEFAULT_MIX.shares)
    .option('--accounts <n>', 'number of accounts', positive, DEFAULT_MIX.accounts)
    .option('--zipf <s>', 'Zipf exponent of activity over accounts', positive, DEFAULT_MIX.zipf)
    .option('--endpoints <n>', 'webhook endpoints per account', positive, DEFAULT_MIX.endpointsPerAccount)
    .option('--receiver-ms <n>', 'webhook receiver reply time', positive, DEFAULT_MIX.receiverMs)
    .option('--stage-throttle <n>', "the stage's API throttle, requests a second", positive, DEFAULT_MIX.stageThrottle)
    .addOption(
      new Option('--plan <plan>', "every account's rate plan, or none")
        .choices([...PLAN_NAMES, 'none'])
        .default(DEFAULT_MIX.plan),
    )
    .showHelpAfterError()
    .exitOverride()
    .action(
      (
        options: Omit<Mix, 'shares' | 'endpointsPerAccount' | 'accounts'> & {
          mix: Mix['shares'];
          endpoints: number;
          accounts: number;
        },
      ) => {
        print(
          scaleReport({
            rate: options.rate,
            shares: options.mix,
            accounts: Math.round(options.accounts),
            zipf: options.zipf,
            endpointsPerAccount: Math.round(options.endpoints),
            plan: options.plan,
            receiverMs: options.receiverMs,
            stageThrottle: options.stageThrottle,
          }),
        );
      },
    );
}
