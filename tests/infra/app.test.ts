import { exec } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import { accessWithGuards } from '../../shared/http/guards.ts';
import { accessKey } from '../../infra/constructs/api-routes.ts';
import { DEPLOY_STRATEGY_BY_STAGE, STAGES, type Stage } from '../../infra/stage.ts';
import { scratchDirs } from '../support/scratch-dirs.ts';

const scratch = scratchDirs('app');

// Synthesizes exactly as the CDK CLI does (`cdk synth` / `cdk deploy`): cdk.json's app command, which runs
// infra/app.ts, with the CLI's environment variables: the output directory, the context (cdk.json's plus `-c` values)
// and the default account and region. Bundling is skipped (`npm run synth` bundles every function for real).
const ROOT = join(import.meta.dirname, '..', '..');
const cdkJson = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')) as { app: string; context: object };
const architecture = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');

const ENVIRONMENTS = {
  'account 123456789012 in eu-west-1': { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'eu-west-1' },
  'no account or region': {},
} as const;
type EnvironmentName = keyof typeof ENVIRONMENTS;

interface Violation {
  ruleName: string;
}
interface Synthesized {
  environment: string;
  violations: Violation[];
  acknowledged: Violation[];
  /** The resources of every template of the stage: the stack and its nested route stacks. */
  resources: { Type: string; Properties: { Description?: string } }[];
  /** How many of them the stage's own template holds (the rest are in the nested route stacks). */
  parentResourceCount: number;
}

async function synthThroughApp(
  stage: Stage,
  environment: Record<string, string>,
  context: Record<string, string> = {},
): Promise<Synthesized> {
  const outdir = scratch(`cdk-${stage}`);
  const catalogueImagesDir = scratch('catalogue');
  writeFileSync(join(catalogueImagesDir, 'abc.jpg'), 'jpeg bytes');
  const { CDK_DEFAULT_ACCOUNT: _a, CDK_DEFAULT_REGION: _r, ...inherited } = process.env;
  await promisify(exec)(cdkJson.app, {
    cwd: ROOT,
    env: {
      ...inherited,
      ...environment,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify({
        ...cdkJson.context,
        stage,
        catalogueImagesDir,
        'aws:cdk:bundling-stacks': [],
        ...context,
      }),
    },
  }).catch((error: { stderr?: string }) => {
    throw new Error(`infra/app.ts failed to synthesize:\n${error.stderr}`);
  });
  const read = (file: string) => JSON.parse(readFileSync(join(outdir, file), 'utf8'));
  const nag = (read('validation-report.json').pluginReports as Array<Record<string, unknown>>).find(
    (r) => r.pluginName === 'AwsSolutions',
  ) as { violations: Violation[]; suppressedViolations: Violation[] };
  return {
    environment: read('manifest.json').artifacts[`PetApi-${stage}`].environment,
    violations: nag.violations,
    acknowledged: nag.suppressedViolations,
    resources: readdirSync(outdir)
      .filter((file) => file.endsWith('.template.json'))
      .flatMap((file) => Object.values(read(file).Resources as Record<string, Synthesized['resources'][number]>)),
    parentResourceCount: Object.keys(read(`PetApi-${stage}.template.json`).Resources).length,
  };
}

const partition = <T>(items: T[], test: (item: T) => boolean): [T[], T[]] => [
  items.filter(test),
  items.filter((item) => !test(item)),
];

const cases = STAGES.flatMap((stage) =>
  (Object.keys(ENVIRONMENTS) as EnvironmentName[]).map((name) => ({ stage, name })),
);
const results = new Map<string, Synthesized>();
const key = (stage: Stage, name: EnvironmentName) => `${stage} ${name}`;

beforeAll(async () => {
  // Two at a time (each is a separate process, like a `cdk synth` run): the other test files share the two cores.
  for (let i = 0; i < cases.length; i += 2)
    await Promise.all(
      cases
        .slice(i, i + 2)
        .map(async ({ stage, name }) =>
          results.set(key(stage, name), await synthThroughApp(stage, ENVIRONMENTS[name])),
        ),
    );
}, 300_000);

describe.each(cases)('infra/app.ts, stage $stage, $name', ({ stage, name }) => {
  it('synthesizes with zero unacknowledged cdk-nag AwsSolutions findings', () => {
    const result = results.get(key(stage, name))!;
    expect(result.violations).toEqual([]);
    expect(result.acknowledged.length).toBeGreaterThan(0);
  });

  it('targets the environment the CLI supplies', () => {
    const env = ENVIRONMENTS[name];
    const expected =
      'CDK_DEFAULT_REGION' in env
        ? `aws://${env.CDK_DEFAULT_ACCOUNT}/${env.CDK_DEFAULT_REGION}`
        : 'aws://unknown-account/unknown-region';
    expect(results.get(key(stage, name))!.environment).toBe(expected);
  });
});

it('stops a synth whose custom domain or firewall cannot deploy, naming the context value', async () => {
  await expect(synthThroughApp('production', {}, { waf: 'true' })).rejects.toThrow(
    /-c waf and -c domainName need the stage's region/,
  );
  await expect(
    synthThroughApp('staging', ENVIRONMENTS['account 123456789012 in eu-west-1'], { domainName: 'api.example.com' }),
  ).rejects.toThrow(/-c domainName needs -c certificateArn/);
});

it("acknowledges the catalogue copy handler's read of the asset bucket in the concrete account and region", () => {
  const ruleNames = results
    .get(key('production', 'account 123456789012 in eu-west-1'))!
    .acknowledged.map((v) => v.ruleName);
  expect(ruleNames).toContain(
    'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-123456789012-eu-west-1/*]',
  );
});

describe('docs/ARCHITECTURE.md agrees with the synthesized stacks', () => {
  it('names every acknowledged cdk-nag rule, and only those', () => {
    for (const result of results.values()) {
      const acknowledgedRules = new Set(result.acknowledged.map((v) => v.ruleName.replace(/\[.*$/, '')));
      const documented = new Set([...architecture.matchAll(/^\| (AwsSolutions-[A-Z]+\d+) \|/gm)].map((m) => m[1]));
      expect(documented).toEqual(acknowledgedRules);
    }
  });

  it("states the number of routes and each stage template's resources", () => {
    const stated = architecture.match(
      /\| Resources today \((\d+) routes and the fallback\) \|\n.*?\n\| `PetApi-<stage>` \|.*?\| (\d+) \(staging\), (\d+) \(production\) \|/,
    );
    expect(stated, 'the deployed resources table').not.toBeNull();
    const [routeCount, staging, production] = stated!.slice(1).map(Number);
    expect(routeCount).toBe(routes.length);
    for (const [key, result] of results)
      expect(result.parentResourceCount, key).toBe(key.startsWith('staging') ? staging : production);
    expect(architecture).toContain(
      `stay in the parent\nstack (${staging} resources in staging, ${production} in production)`,
    );
  });

  it('states the number of IAM roles and what they are for', () => {
    for (const [key, result] of results) {
      // The service roles of CodeDeploy (where deploys go by canary) and AWS Backup (production) are stated apart.
      const stage = key.split(' ')[0] as Stage;
      const [serviceRoles, roles] = partition(
        result.resources.filter((r) => r.Type === 'AWS::IAM::Role'),
        (r) => /^(CodeDeploy|AWS Backup) /.test(r.Properties.Description ?? ''),
      );
      expect(serviceRoles.map((r) => r.Properties.Description!.split(' ')[0]).sort(), key).toEqual([
        ...(stage === 'production' ? ['AWS'] : []),
        ...(DEPLOY_STRATEGY_BY_STAGE[stage] === 'canary' ? ['CodeDeploy'] : []),
      ]);
      expect(architecture).toContain(
        'plus 1 for CodeDeploy in a stage that deploys by canary (production by default) and 1 for AWS Backup in production',
      );
      const routeRoles = roles.filter((r) => r.Properties.Description?.startsWith('Route functions with access'));
      const cdkRoles = roles.filter((r) => r.Properties.Description === undefined);
      const distinctAccess = new Set([...routes, fallbackRoute].map(accessWithGuards).map(accessKey));
      expect(routeRoles).toHaveLength(distinctAccess.size);
      const stated = architecture.match(
        /\*\*(\d+) IAM roles\*\* per stage: (\d+) shared by the route functions.*?, (\d+) for the workers.*?, (\d+) created by aws-cdk-lib/s,
      );
      expect(stated, 'the IAM role sentence').not.toBeNull();
      expect(stated!.slice(1).map(Number)).toEqual([
        roles.length,
        routeRoles.length,
        roles.length - routeRoles.length - cdkRoles.length,
        cdkRoles.length,
      ]);
    }
  });
});
