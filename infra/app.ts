import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { parseDeployStrategy, parseStage } from './stage.ts';
import { stageStacks } from './stack.ts';
import { edgeFrom } from './edge.ts';
import { restoredTableFrom } from './constructs/data-table.ts';
import { stageThrottleFrom } from './constructs/stage-throttle.ts';
import { describeFigures, limitBreaches, measureStack } from './limits.ts';
import { serviceName } from '../shared/observability.ts';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));

// `-c catalogueImagesDir=…` points elsewhere (the infra tests pass a small directory instead of rendering 1,600 JPEGs).
const catalogueImagesDir: string =
  app.node.tryGetContext('catalogueImagesDir') ?? join(import.meta.dirname, '..', '.local', 'images', 'catalogue');
if (!existsSync(catalogueImagesDir)) throw new Error('Render the catalogue images first: npm run data:images');

const region = process.env.CDK_DEFAULT_REGION;
const stacks = stageStacks(app, serviceName(stage), {
  stage,
  catalogueImagesDir,
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  mailFrom: app.node.tryGetContext('mailFrom'),
  analysisModelId: app.node.tryGetContext('analysisModel'),
  portraitModelId: app.node.tryGetContext('portraitModel'),
  deployStrategy: parseDeployStrategy(app.node.tryGetContext('deploy'), stage),
  restoredTable: restoredTableFrom((key) => app.node.tryGetContext(key), stage),
  throttle: stageThrottleFrom((key) => app.node.tryGetContext(key), stage),
  edge: edgeFrom((key) => app.node.tryGetContext(key), stage, region),
  // Deploys to the account and region of the caller's credentials; synth needs neither (a custom domain or the
  // firewall needs the region).
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region },
  description: `Pet data, analysis and webhook API (${stage})`,
});

// Any unacknowledged AwsSolutions finding stops synthesis; each acknowledgement carries its reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));

// AWS limits a deploy would meet only after synth (infra/limits.ts): reported for every synth, and a breach stops it.
const assembly = app.synth().directory;
const breaches = [stacks.stack, stacks.firewall].flatMap((stack) => {
  if (!stack) return [];
  const figures = measureStack(assembly, stack.stackName);
  process.stderr.write(`${describeFigures(figures)}\n`);
  return limitBreaches(figures);
});
if (breaches.length > 0) throw new Error(`AWS limits exceeded:\n${breaches.join('\n')}`);
