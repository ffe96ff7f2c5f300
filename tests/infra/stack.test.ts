import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumers, deadLettersInto } from '../../events/consumers.ts';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import { API_BASE_PATH, type RouteDef } from '../../shared/http/route-def.ts';
import { constructName, latencyBudget, routesByArea } from '../../infra/constructs/api-routes.ts';
import { REQUESTS_TABLE_ACTIONS, TABLE_ACTIONS } from '../../infra/constructs/grants.ts';
import { accessWithGuards, isIdempotent, rateClassOf } from '../../shared/http/guards.ts';
import { PROVIDER_FAULTS } from '../../shared/domain/analysis/ask.ts';
import { METRIC } from '../../shared/observability.ts';
import { LOCAL_ONLY_SETTINGS } from '../../shared/config.ts';
import { PetApiStack } from '../../infra/stack.ts';
import { BACKUP_RETENTION, restoredTableFrom } from '../../infra/constructs/data-table.ts';
import { NONCURRENT_DAYS } from '../../infra/constructs/media.ts';
import { STAGE_THROTTLE, stageThrottleFrom } from '../../infra/constructs/stage-throttle.ts';
import { limitBreaches, measureStack } from '../../infra/limits.ts';
import { ANALYSIS_MODEL_BY_STAGE, DEPLOY_STRATEGY_BY_STAGE, type Stage } from '../../infra/stage.ts';
import {
  RELEASE_5XX_PERCENT,
  RELEASE_ALIAS,
  RELEASE_FAILURES,
  RELEASE_P99_MS,
} from '../../infra/constructs/releases.ts';
import { flattenedTemplate, nestedStacksOf } from '../support/assembly.ts';
import { scratchDirs } from '../support/scratch-dirs.ts';

const scratch = scratchDirs('infra');

/**
 * Per template (every stack and nested stack of the assembly); CloudFormation's own limit is 500. The route areas live
 * in nested stacks, so 300 leaves each template room for a few dozen more routes or workers.
 */
const RESOURCE_BUDGET = 300;

function synth(stage: Stage) {
  // Bundling is skipped here; `npm run synth` bundles every function for real.
  const app = new App({ outdir: scratch('cdk'), context: { 'aws:cdk:bundling-stacks': [] } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const stack = new PetApiStack(app, `PetApi-${stage}`, { stage });
  const assembly = app.synth();
  // Every assertion below reads the whole stage: the parent and its nested route stacks, references bound.
  return { template: flattenedTemplate(stack), stack, assembly };
}

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** Our functions, not aws-cdk-lib's own custom-resource handlers (which run on runtimes CDK picks). */
const isOurFunction = (r: { Type: string; Properties: Record<string, any> }) =>
  r.Type === 'AWS::Lambda::Function' &&
  typeof r.Properties.Description === 'string' &&
  !r.Properties.Description.startsWith('AWS CloudFormation handler');

describe.each(['staging', 'production'] as const)('the %s stack', (stage) => {
  let template: Template;
  let resources: Resources;
  let templateSizes: Record<string, number>;
  let stack: PetApiStack;
  let assemblyDir: string;
  beforeAll(() => {
    const synthesized = synth(stage);
    template = synthesized.template;
    stack = synthesized.stack;
    resources = template.toJSON().Resources;
    const dir = synthesized.assembly.directory;
    assemblyDir = dir;
    const files = readdirSync(dir).filter((f) => f.endsWith('.template.json'));
    templateSizes = Object.fromEntries(
      files.map((f) => [f, Object.keys(JSON.parse(readFileSync(join(dir, f), 'utf8')).Resources ?? {}).length]),
    );
  });

  /** The one Powertools layer of the stage, as a function's Layers entry refers to it. */
  const observabilityLayer = () => {
    const ids = Object.entries(resources).filter(
      ([, r]) =>
        r.Type === 'AWS::Lambda::LayerVersion' &&
        String(r.Properties.Description).startsWith('Powertools for AWS Lambda'),
    );
    expect(ids).toHaveLength(1);
    return { Ref: ids[0]![0] };
  };

  /** The logical id of the `live` alias of the function `fnId`, which its callers invoke. */
  const liveAliasOf = (fnId: string) => {
    const aliases = Object.entries(resources).filter(
      ([, r]) => r.Type === 'AWS::Lambda::Alias' && r.Properties.FunctionName.Ref === fnId,
    );
    expect(aliases.map(([, r]) => r.Properties.Name)).toEqual([RELEASE_ALIAS]);
    return aliases[0]![0];
  };

  /** The alias an event source mapping invokes (its FunctionName is `<function name>:live`, from the alias ARN). */
  const invokedBy = (mapping: Resources[string]) =>
    JSON.stringify(mapping.Properties.FunctionName).match(/"Ref":"([^"]+)"/)![1]!;

  it('throttles the stage at 500 requests a second, burst 1,000, unless the operator raised it', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 }),
    });
  });

  it('publishes every function but the deploy-time loader behind its live alias, which its API route or event source invokes', () => {
    const ours = Object.entries(resources).filter(
      ([, r]) =>
        isOurFunction(r) && r.Properties.Description !== 'Loads the reference data sets into the table on deploy',
    );
    expect(ours).toHaveLength(routes.length + 1 + consumers.length);
    const invoked = new Set<string>();
    for (const [, r] of Object.entries(resources)) {
      if (r.Type === 'AWS::ApiGatewayV2::Integration') invoked.add(r.Properties.IntegrationUri.Ref);
      if (r.Type === 'AWS::Lambda::EventSourceMapping') invoked.add(invokedBy(r));
    }
    const aliases = ours.map(([id]) => liveAliasOf(id));
    expect([...invoked].sort()).toEqual(aliases.sort());
    for (const alias of aliases)
      expect(resources[resources[alias]!.Properties.FunctionVersion['Fn::GetAtt'][0]]!.Type).toBe(
        'AWS::Lambda::Version',
      );
  });

  it(`deploys ${DEPLOY_STRATEGY_BY_STAGE[stage] === 'canary' ? 'by canary, rolled back by alarms' : 'at once, without CodeDeploy'}`, () => {
    const groups = Object.values(resources).filter((r) => r.Type === 'AWS::CodeDeploy::DeploymentGroup');
    if (DEPLOY_STRATEGY_BY_STAGE[stage] === 'all-at-once') {
      expect(groups).toEqual([]);
      expect(Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Alias')).not.toContainEqual(
        expect.objectContaining({ UpdatePolicy: expect.anything() }),
      );
      return;
    }
    const aliases = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Alias');
    expect(groups).toHaveLength(aliases.length);
    const alarmName = (ref: unknown) => resources[(ref as { Ref: string }).Ref]!;
    for (const [id, alias] of aliases) {
      const update = (alias as { UpdatePolicy?: any }).UpdatePolicy.CodeDeployLambdaAliasUpdate;
      const group = Object.entries(resources).find(
        ([groupId, r]) => r.Type === 'AWS::CodeDeploy::DeploymentGroup' && update.DeploymentGroupName.Ref === groupId,
      )![1];
      expect(group.Properties).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
        DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
        AutoRollbackConfiguration: {
          Enabled: true,
          Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
        },
        AlarmConfiguration: { Enabled: true },
      });
      // The function's own failure alarm, then the stage's 5xx rate and p99 latency, each over 1-minute windows.
      const [own, ...stageAlarms] = group.Properties.AlarmConfiguration.Alarms.map(
        (a: { Name: unknown }) => alarmName(a.Name).Properties,
      );
      const fnId = alias.Properties.FunctionName.Ref;
      const watched = JSON.stringify(own);
      expect(watched).toContain('"MetricName":"Errors"');
      expect(watched).toContain(JSON.stringify({ Name: 'FunctionName', Value: { Ref: fnId } }));
      const route = [...routes, fallbackRoute].find(
        (r) => resources[fnId]!.Properties.Description === `${r.method} ${API_BASE_PATH}${r.path}`,
      );
      // A route's canary is also judged by its 5xx answers, which its handler returns without crashing.
      if (route)
        expect(watched, id).toContain(
          JSON.stringify([
            { Name: 'route', Value: route.id },
            { Name: 'service', Value: `PetApi-${stage}` },
            { Name: 'status_class', Value: '5xx' },
          ]),
        );
      expect(own).toMatchObject({ Threshold: RELEASE_FAILURES, EvaluationPeriods: 1 });
      expect(stageAlarms.map((a: { Threshold: number }) => a.Threshold)).toEqual([RELEASE_5XX_PERCENT, RELEASE_P99_MS]);
      const periods = [own, ...stageAlarms].flatMap((a) =>
        [...JSON.stringify(a).matchAll(/"Period":(\d+)/g)].map((m) => Number(m[1])),
      );
      expect(new Set(periods)).toEqual(new Set([60]));
    }
  });

  it('traces every function with X-Ray and gives it Powertools from the one Powertools layer, named for the stage', () => {
    const functions = Object.values(resources).filter(isOurFunction);
    // every route, the $default fallback, every consumer and the reference-data loader
    expect(functions.length).toBe(routes.length + 1 + consumers.length + 1);
    for (const fn of functions) {
      expect(fn.Properties.TracingConfig, fn.Properties.Description).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Layers[0]).toEqual(observabilityLayer());
      expect(fn.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: `PetApi-${stage}`,
        POWERTOOLS_METRICS_NAMESPACE: 'PetApi',
      });
    }
    const xray = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: unknown }[])
      .filter((st) => JSON.stringify(st.Action).includes('xray:PutTraceSegments'));
    expect(xray.length).toBeGreaterThan(0);
  });

  it('names the stage in every function (STAGE) and switches on none of the local-only settings there', () => {
    const functions = Object.values(resources).filter(isOurFunction);
    expect(functions.length).toBeGreaterThan(routes.length);
    for (const fn of functions) {
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(variables.STAGE, fn.Properties.Description).toBe(stage);
      expect(
        Object.keys(variables).filter((name) => (LOCAL_ONLY_SETTINGS as readonly string[]).includes(name)),
        fn.Properties.Description,
      ).toEqual([]);
    }
  });

  it("stages each layer so that Lambda, which does not run as the files' owner, can read every file and run every executable", () => {
    const layers = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::LayerVersion');
    expect(layers.map((layer) => layer.Properties.Description as string).sort()).toEqual([
      expect.stringMatching(/^Powertools/),
      expect.stringMatching(/^ffmpeg/),
      expect.stringMatching(/^sharp/),
    ]);
    const modes = new Map<string, number>();
    for (const layer of layers) {
      // The staged asset folder, as the CLI zips and uploads it (keeping each file's mode).
      const asset = join(assemblyDir, `asset.${String(layer.Properties.Content.S3Key).replace(/\.zip$/, '')}`);
      for (const entry of readdirSync(asset, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        const mode = statSync(path).mode & 0o777;
        modes.set(path.slice(asset.length + 1), mode);
        expect(mode & 0o444, path).toBe(0o444);
        if (mode & 0o111) expect(mode & 0o111, path).toBe(0o111);
      }
    }
    expect(modes.get('bin/ffmpeg')).toBe(0o755);
    expect(modes.get('bin/ffprobe')).toBe(0o755);
  });

  it('alarms on the p99 duration of every route function, each against its latency budget', () => {
    const functions = Object.entries(resources).filter(([, r]) => isOurFunction(r));
    const latencyAlarms = Object.values(resources).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === 'Duration',
    );
    for (const route of routes) {
      const [fnId] = functions.find(
        ([, f]) => f.Properties.Description === `${route.method} ${API_BASE_PATH}${route.path}`,
      )!;
      const alarms = latencyAlarms.filter((a) => a.Properties.Dimensions[0].Value.Ref === fnId);
      expect(alarms, route.id).toHaveLength(1);
      expect(alarms[0]!.Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        ExtendedStatistic: 'p99',
        Period: 300,
        Threshold: latencyBudget(route).toMilliseconds(),
        AlarmActions: [expect.objectContaining({ Ref: expect.stringMatching(/AlarmTopic/) })],
      });
    }
  });

  it('alarms on the 5xx rate, the webhook failure ratio and analysis provider errors, from the metrics the code emits', () => {
    const mathAlarms = Object.values(resources).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm' && Array.isArray(r.Properties.Metrics),
    );
    const using = (alarm: { Properties: Record<string, any> }) =>
      (
        alarm.Properties.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions?: unknown[] } } }[]
      ).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []));
    const named = (name: string) => mathAlarms.find((a) => using(a).some((m) => m.MetricName === name))!;
    expect(
      using(named('5xx'))
        .map((m) => m.MetricName)
        .sort(),
    ).toEqual(['5xx', 'Count']);
    expect(
      using(named(METRIC.webhookFailures))
        .map((m) => m.MetricName)
        .sort(),
    ).toEqual([METRIC.webhookAttempts, METRIC.webhookFailures]);
    const provider = using(named(METRIC.analysisCalls));
    expect(provider.map((m) => m.Dimensions)).toEqual(
      PROVIDER_FAULTS.map((outcome) => [
        { Name: 'outcome', Value: outcome },
        { Name: 'service', Value: `PetApi-${stage}` },
      ]),
    );
    for (const alarm of [named('5xx'), named(METRIC.webhookFailures), named(METRIC.analysisCalls)])
      expect(alarm.Properties.AlarmActions).toEqual([
        expect.objectContaining({ Ref: expect.stringMatching(/AlarmTopic/) }),
      ]);
  });

  it('has a dashboard for the stage with requests by route, latency, webhooks, uploads, analysis and DLQs', () => {
    const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const shown of [
      METRIC.requests,
      'Duration',
      METRIC.webhookAttempts,
      METRIC.webhookFailures,
      METRIC.webhookDisables,
      METRIC.uploads,
      METRIC.analysisCalls,
      METRIC.analysisProviderLatency,
      'ApproximateNumberOfMessagesVisible',
      `PetApi-${stage}`,
    ])
      expect(body, shown).toContain(shown);
  });

  it('stays within the AWS limits checked at synth, layers measured through the nested route stacks', () => {
    const figures = measureStack(assemblyDir, `PetApi-${stage}`);
    expect(limitBreaches(figures)).toEqual([]);
    expect(figures.templates).toHaveLength(Object.keys(templateSizes).length);
    // Only the AWS Parameters and Secrets extension is published by others; every other layer is an asset measured here.
    expect(figures.outsideLayers).toBe(1);
    expect(figures.largest.unzippedBytes.value).toBeGreaterThan(100 * 1024 * 1024);
  });

  it(`keeps every template within the ${RESOURCE_BUDGET}-resource budget`, () => {
    expect(Object.keys(templateSizes).length).toBeGreaterThan(0);
    for (const [file, count] of Object.entries(templateSizes)) expect(count, file).toBeLessThanOrEqual(RESOURCE_BUDGET);
  });

  it('puts each area of the route table (its functions/ folder) in a nested stack of its own, with all its routes', () => {
    const parentRoutes = Object.values(Template.fromStack(stack).toJSON().Resources as Resources).filter(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route',
    );
    expect(parentRoutes.map((r) => r.Properties.RouteKey)).toEqual(['$default']);
    const areas = routesByArea(routes);
    const nested = new Map(nestedStacksOf(stack).map((s) => [s.node.id, s]));
    expect([...nested.keys()].sort()).toEqual([...areas.keys()].map((area) => `${constructName(area)}Routes`).sort());
    for (const [area, areaRoutes] of areas) {
      const areaResources = Object.values(
        Template.fromStack(nested.get(`${constructName(area)}Routes`)!).toJSON().Resources as Resources,
      );
      const routeKeys = areaResources.filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
      expect(routeKeys.map((r) => r.Properties.RouteKey).sort(), area).toEqual(
        areaRoutes.map((r) => `${r.method} ${API_BASE_PATH}${r.path}`).sort(),
      );
      expect(areaResources.filter(isOurFunction), area).toHaveLength(areaRoutes.length);
    }
  });

  it('has one Node.js 22 arm64 function per route plus the $default fallback, and the named workers (media and analysis on x86_64)', () => {
    const functions = Object.values(resources).filter(isOurFunction);
    const descriptions = functions.map((f) => f.Properties.Description as string);
    for (const route of [...routes, fallbackRoute])
      expect(
        descriptions.filter((d) => d === `${route.method} ${API_BASE_PATH}${route.path}`),
        route.id,
      ).toHaveLength(1);
    // Every consumer of the consumer table, and the deploy-time reference data loader.
    expect(descriptions.filter((d) => !/^(GET|POST|PUT|PATCH|DELETE) \//.test(d)).sort()).toEqual(
      [...consumers.map((c) => c.description), 'Loads the reference data sets into the table on deploy'].sort(),
    );
    const analysis = new Set(
      routes
        .filter((r) => (r.access as { visionModel?: string }).visionModel)
        .map((r) => `${r.method} ${API_BASE_PATH}${r.path}`),
    );
    const native = new Set<string>(consumers.filter((c) => 'native' in c).map((c) => c.description));
    expect(native.size).toBeGreaterThanOrEqual(5);
    for (const fn of functions) {
      // The media processors and the analysis routes (sharp) run where the native tools in their layers come from
      // (infra/constructs/media-layers.ts).
      const description = fn.Properties.Description as string;
      const media = native.has(description) || analysis.has(description);
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: [media ? 'x86_64' : 'arm64'] });
    }
  });

  it('keeps pet media and uploaded originals private: the CDN is denied pets/ and uploads/, routes get only the prefixes they declare', () => {
    for (const prefix of ['/pets/*', '/uploads/*'])
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Principal: { Service: 'cloudfront.amazonaws.com' },
              Action: 's3:GetObject',
              Resource: { 'Fn::Join': ['', [Match.anyValue(), prefix]] },
            }),
          ]),
        },
      });
    const petMediaPolicies = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' &&
        JSON.stringify(r.Properties.PolicyDocument).includes('/pets/*') &&
        JSON.stringify(r.Properties.PolicyDocument).includes('s3:PutObject'),
    );
    expect(petMediaPolicies.length).toBeGreaterThan(0);
    for (const policy of Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy'))
      for (const statement of policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[])
        if (JSON.stringify(statement.Action).includes('s3:PutObject'))
          expect(JSON.stringify(statement.Resource)).toMatch(/\/(uploads|images|pets|pets\/media|catalogue)\/|cdk-/);
    for (const name of ['Pet photos', 'Photo uploads']) {
      const photoProcessor = Object.values(resources).find((r) => String(r.Properties?.Description).startsWith(name));
      expect(photoProcessor?.Properties, name).toMatchObject({
        MemorySize: 2048,
        Layers: [observabilityLayer(), expect.anything()],
      });
    }
    const videoProcessor = Object.values(resources).find((r) =>
      String(r.Properties?.Description).startsWith('Pet videos'),
    );
    expect(videoProcessor?.Properties).toMatchObject({
      Layers: [observabilityLayer(), expect.anything()],
      EphemeralStorage: { Size: 2048 },
      Environment: {
        Variables: expect.objectContaining({ FFMPEG_PATH: '/opt/bin/ffmpeg', FFPROBE_PATH: '/opt/bin/ffprobe' }),
      },
    });
  });

  it('lets the portrait generator invoke exactly the stage image model, and only the portrait route queue to it', () => {
    const invoke = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[])
      .filter((s) => JSON.stringify(s.Action).includes('bedrock:InvokeModel'));
    const portraitGrants = invoke.filter((s) => JSON.stringify(s.Resource).includes('nova-canvas'));
    expect(portraitGrants).toHaveLength(1);
    expect(JSON.stringify(portraitGrants[0]!.Resource)).toContain(':foundation-model/amazon.nova-canvas-v1:0');
    for (const s of invoke) expect(s.Resource).not.toBe('*');
    const portraitRoute = Object.values(resources).find(
      (r) => r.Properties?.Description === 'POST /v1/pets/{petId}/portrait',
    );
    expect(portraitRoute?.Properties.Environment.Variables).toHaveProperty('PORTRAITS_QUEUE_URL');
  });

  it('turns committed writes into events: filtered stream source, partial batch failures, bisecting, DLQ on failure', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      StartingPosition: 'TRIM_HORIZON',
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        // One filter for the item types that count in any state, one per state-bound source: within Lambda's five.
        Filters: [
          { Pattern: Match.stringLikeRegexp('^\\{"dynamodb":\\{"NewImage":\\{"type":\\{"S":\\["Vote","Favourite",') },
          {
            Pattern: JSON.stringify({
              dynamodb: { NewImage: { type: { S: ['Webhook'] }, status: { S: ['disabled'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              dynamodb: {
                NewImage: { type: { S: ['WebhookDelivery'] }, attempt: { N: ['3'] }, succeeded: { BOOL: [false] } },
              },
            }),
          },
        ],
      },
    });
  });

  it('gives back what abandoned uploads took: TTL removals of awaiting image and pet uploads only, DLQ on failure', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['REMOVE'],
              userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
              dynamodb: { OldImage: { type: { S: ['Image', 'PetMedia'] }, status: { S: ['awaiting_upload'] } } },
            }),
          },
        ],
      },
    });
  });

  it('measures respiratory rates from new measurements only, with ffmpeg on x86_64, reading nothing but served media', () => {
    const [id, meter] = Object.entries(resources).find(([, r]) =>
      String(r.Properties?.Description).startsWith('Pet respiratory rate'),
    )!;
    expect(meter.Properties).toMatchObject({
      Architectures: ['x86_64'],
      Layers: [observabilityLayer(), expect.anything()],
      Timeout: 180,
      MemorySize: 2048,
      EphemeralStorage: { Size: 1024 },
      Environment: { Variables: expect.objectContaining({ FFMPEG_PATH: '/opt/bin/ffmpeg' }) },
    });
    expect(meter.Properties.Environment.Variables.STREAM_DLQ_URL.Ref).toMatch(/StreamFailureDlq/);
    const alias = liveAliasOf(id);
    const mapping = Object.values(resources).find(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && invokedBy(r) === alias,
    )!;
    expect(mapping.Properties).toMatchObject({
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { type: { S: ['RespiratoryRate'] }, status: { S: ['processing'] } } },
            }),
          },
        ],
      },
    });
    const role = meter.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(role))
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const actions = statements.flatMap((s) => s.Action);
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual(['s3:GetObject']);
    expect(JSON.stringify(statements.find((s) => s.Action === 's3:GetObject')!.Resource)).toContain('/pets/media/*');
    const streamReading = ['DescribeStream', 'GetRecords', 'GetShardIterator', 'ListStreams'].map(
      (a) => `dynamodb:${a}`,
    );
    // Query: the earlier measurements an alert is judged by; PutItem and ConditionCheckItem: the record of the pet.
    expect(actions.filter((a) => a.startsWith('dynamodb:') && !streamReading.includes(a)).sort()).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
  });

  it('lets the event router park unpublishable events in the alarmed stream DLQ', () => {
    const router = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::Function' &&
        r.Properties.Description === 'Turns committed writes (table stream) into domain events',
    )!;
    expect(router.Properties.Environment.Variables.STREAM_DLQ_URL.Ref).toMatch(/StreamFailureDlq/);
  });

  it("lets each queue consumer that sends park refused messages in its own queue's DLQ, and no other consumer", () => {
    const ourFunctions = Object.entries(resources).filter(([, r]) => isOurFunction(r));
    for (const consumer of consumers) {
      const [fnId, fn] = ourFunctions.find(([, r]) => r.Properties.Description === consumer.description)!;
      const dlqUrl = fn.Properties.Environment.Variables.DEAD_LETTER_QUEUE_URL;
      if (!deadLettersInto(consumer)) {
        expect(dlqUrl, consumer.id).toBeUndefined();
        continue;
      }
      // The queue the consumer reads, as its event source names it, and that queue's dead-letter queue.
      const mapping = Object.values(resources).find(
        (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && invokedBy(r) === liveAliasOf(fnId),
      )!;
      const queue = resources[mapping.Properties.EventSourceArn['Fn::GetAtt'][0]]!;
      const dlqId = queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
      expect(dlqUrl, consumer.id).toEqual({ Ref: dlqId });
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      const sends = Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(role))
        .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
      expect(JSON.stringify(sends), consumer.id).toContain(dlqId);
    }
    expect(consumers.filter((consumer) => deadLettersInto(consumer)).map((c) => c.id)).toEqual([
      'webhooks.dispatch',
      'webhooks.deliver',
    ]);
  });

  it('gives every queue a dead-letter queue, encryption and TLS, and alarms on every DLQ', () => {
    const isStreamDlq = (id: string) => id.includes('StreamFailureDlq') || id.includes('ExpiryFailureDlq');
    const queues = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SQS::Queue');
    const dlqIds = new Set(
      queues.flatMap(([, q]) =>
        q.Properties.RedrivePolicy ? [q.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]] : [],
      ),
    );
    const alarmed = Object.values(resources)
      .filter(
        (r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === 'ApproximateNumberOfMessagesVisible',
      )
      .map((r) => r.Properties.Dimensions[0].Value['Fn::GetAtt'][0]);
    for (const [id, q] of queues) {
      expect(q.Properties.SqsManagedSseEnabled, id).toBe(true);
      expect(q.Properties.RedrivePolicy !== undefined || dlqIds.has(id) || isStreamDlq(id), id).toBe(true);
    }
    for (const id of [...dlqIds, ...queues.map(([id]) => id).filter(isStreamDlq)]) expect(alarmed, id).toContain(id);
  });

  it('keeps media private: encrypted, TLS-only, no public access, read only by the CDN', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'media-bucket/' }),
    });
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ SigningBehavior: 'always' }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('serves media through a response-headers policy that forbids content sniffing', () => {
    const [policyId] = Object.entries(resources).find(
      ([, r]) =>
        r.Type === 'AWS::CloudFront::ResponseHeadersPolicy' &&
        r.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig?.ContentTypeOptions?.Override === true,
    )!;
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ResponseHeadersPolicyId: { Ref: policyId } }),
      }),
    });
  });

  it('registers exactly the routes of the table, under /v1, plus $default', () => {
    const routeKeys = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey)
      .sort();
    expect(routeKeys).toEqual([...routes.map((r) => `${r.method} ${API_BASE_PATH}${r.path}`), '$default'].sort());
  });

  /** The DynamoDB actions a route's function may take on the table keyed by `partitionKey`. */
  function tableActionsOf(route: RouteDef, partitionKey: string): string[] {
    const [tableId] = Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::DynamoDB::Table' && r.Properties.KeySchema[0].AttributeName === partitionKey,
    )!;
    const fn = Object.values(resources)
      .filter(isOurFunction)
      .find((f) => f.Properties.Description === `${route.method} ${API_BASE_PATH}${route.path}`)!;
    const roleRef = fn.Properties.Role['Fn::GetAtt'][0];
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleRef))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .filter((s: { Resource: unknown }) => JSON.stringify(s.Resource).includes(`"${tableId}"`))
      .flatMap((s: { Action: string | string[] }) => [s.Action].flat());
  }

  it('gives each function only the table actions its route declares, and Scan to none', () => {
    for (const route of [...routes, fallbackRoute]) {
      const actions = tableActionsOf(route, 'pk');
      const table = (route.access as { table?: 'read' | 'write' }).table;
      expect(new Set(actions), route.id).toEqual(new Set(table ? TABLE_ACTIONS[table] : []));
      expect(actions).not.toContain('dynamodb:Scan');
    }
  });

  it('gives the requests table to the guarded routes only: writes to limited or idempotent ones, reads to the quota route', () => {
    const guarded = [...routes, fallbackRoute].filter((r) => rateClassOf(r) || isIdempotent(r));
    expect(guarded.length).toBeGreaterThan(30);
    for (const route of [...routes, fallbackRoute]) {
      const expected = accessWithGuards(route).requests;
      expect(new Set(tableActionsOf(route, 'id')), route.id).toEqual(
        new Set(expected ? REQUESTS_TABLE_ACTIONS[expected] : []),
      );
      const fn = Object.values(resources)
        .filter(isOurFunction)
        .find((f) => f.Properties.Description === `${route.method} ${API_BASE_PATH}${route.path}`)!;
      expect(Boolean(fn.Properties.Environment.Variables.REQUESTS_TABLE_NAME), route.id).toBe(Boolean(expected));
    }
    expect(accessWithGuards(routes.find((r) => r.id === 'accounts.quota')!).requests).toBe('read');
  });

  it('keeps the requests table on demand with a TTL, and off the stream (its records are not data)', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      StreamSpecification: Match.absent(),
    });
  });

  it("lets only the routes that declare visionModel invoke Bedrock, and only the stage's one model", () => {
    const functions = Object.values(resources).filter(isOurFunction);
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy');
    const modelId = ANALYSIS_MODEL_BY_STAGE[stage];
    for (const route of [...routes, fallbackRoute]) {
      const fn = functions.find((f) => f.Properties.Description === `${route.method} ${API_BASE_PATH}${route.path}`)!;
      const roleRef = fn.Properties.Role['Fn::GetAtt'][0];
      const bedrock = policies
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleRef))
        .flatMap((p) => p.Properties.PolicyDocument.Statement)
        .filter((st: { Action: string | string[] }) => [st.Action].flat().some((a) => a.startsWith('bedrock:')));
      const declares = (route.access as { visionModel?: string }).visionModel === 'invoke';
      if (!declares) {
        expect(bedrock, route.id).toEqual([]);
        continue;
      }
      expect(bedrock, route.id).toHaveLength(1);
      expect(bedrock[0].Action).toBe('bedrock:InvokeModel');
      expect(JSON.stringify(bedrock[0].Resource)).toContain(`::foundation-model/${modelId}`);
      expect(fn.Properties.Environment.Variables).toMatchObject({
        ANALYSIS_PROVIDER: 'bedrock',
        ANALYSIS_MODEL: modelId,
        ANALYSIS_TIMEOUT_MS: '25000',
      });
      expect(fn.Properties.Timeout).toBe(29);
      // sharp (photo downscaling) comes from the x86_64 media layer
      expect(fn.Properties.Architectures).toEqual(['x86_64']);
      expect(fn.Properties.Layers).toEqual([observabilityLayer(), expect.anything()]);
    }
    expect(routes.filter((r) => (r.access as { visionModel?: string }).visionModel).length).toBe(6);
  });

  it('keeps the table on demand, recoverable and streaming, and protected in production', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      DeletionProtectionEnabled: stage === 'production',
    });
  });

  it(`backs the table up with AWS Backup ${stage === 'production' ? 'daily (35 days) and monthly (a year)' : 'nowhere (point-in-time recovery only)'}`, () => {
    const plans = Object.values(resources).filter((r) => r.Type === 'AWS::Backup::BackupPlan');
    if (stage !== 'production') {
      expect(plans).toEqual([]);
      return;
    }
    expect(plans).toHaveLength(1);
    const rules = plans[0]!.Properties.BackupPlan.BackupPlanRule as {
      ScheduleExpression: string;
      Lifecycle: { DeleteAfterDays: number };
    }[];
    expect(rules.map((r) => [r.ScheduleExpression, r.Lifecycle])).toEqual([
      ['cron(0 3 * * ? *)', { DeleteAfterDays: BACKUP_RETENTION.daily.toDays() }],
      ['cron(0 4 1 * ? *)', { DeleteAfterDays: BACKUP_RETENTION.monthly.toDays() }],
    ]);
    const [tableId] = Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::DynamoDB::Table' && r.Properties.KeySchema[0].AttributeName === 'pk',
    )!;
    template.hasResourceProperties('AWS::Backup::BackupSelection', {
      BackupSelection: Match.objectLike({ Resources: [{ 'Fn::GetAtt': [tableId, 'Arn'] }] }),
    });
    // The vault outlives the stack, as the recovery points in it must.
    expect(Object.values(resources).find((r) => r.Type === 'AWS::Backup::BackupVault')).toMatchObject({
      DeletionPolicy: 'Retain',
    });
  });

  it(`${stage === 'production' ? 'versions' : 'does not version'} the media bucket, keeping replaced objects a while in production`, () => {
    const bucket = Object.values(resources).find(
      (r) => r.Type === 'AWS::S3::Bucket' && r.Properties.LoggingConfiguration?.LogFilePrefix === 'media-bucket/',
    )!;
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    if (stage !== 'production') {
      expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
      expect(rules.filter((r) => r.NoncurrentVersionExpiration)).toEqual([]);
      return;
    }
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Prefix: 'uploads/',
          NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_DAYS.uploads },
        }),
        expect.objectContaining({
          NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_DAYS.other },
          ExpiredObjectDeleteMarker: true,
        }),
      ]),
    );
  });

  it('reads the bearer-token secret only where a route declares it', () => {
    const withSecret = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.TOKEN_SECRET_ARN,
    );
    expect(withSecret).toHaveLength(routes.filter((r) => (r.access as { tokenSecret?: string }).tokenSecret).length);
    for (const fn of withSecret) expect(fn.Properties.Layers).toEqual([observabilityLayer(), expect.anything()]);
  });

  it("loads the reference data on deploy through a custom resource keyed by the data's hash", () => {
    template.hasResourceProperties('AWS::CloudFormation::CustomResource', {
      DataVersion: Match.stringLikeRegexp('^[0-9a-f]{16}$'),
    });
  });

  it('alarms on API 5xx into the alarm topic', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: '5xx',
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('AlarmTopic') })],
    });
  });
});

describe('a production stage with operator settings: a restored table (-c production.tableName, -c production.tableStreamArn) and a raised throttle', () => {
  const restoredTable = {
    tableName: 'pet-api-restored',
    tableStreamArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/pet-api-restored/stream/2026-11-28T09:00:00.000',
  };
  let resources: Resources;
  beforeAll(() => {
    const app = new App({ outdir: scratch('cdk'), context: { 'aws:cdk:bundling-stacks': [] } });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const stack = new PetApiStack(app, 'PetApi-production', {
      stage: 'production',
      restoredTable,
      throttle: { rateLimit: 3000, burstLimit: 5000 },
      env: { account: '123456789012', region: 'eu-west-1' },
    });
    // Synthesis fails on any unacknowledged cdk-nag finding (the grants on the restored table's indexes included).
    app.synth();
    resources = flattenedTemplate(stack).toJSON().Resources;
  });

  it('creates no table of its own, and every function and event source uses the restored one', () => {
    const tables = Object.values(resources).filter((r) => r.Type === 'AWS::DynamoDB::Table');
    expect(tables.map((t) => t.Properties.KeySchema.map((k: { AttributeName: string }) => k.AttributeName))).toEqual([
      ['id'],
    ]);
    const tableNames = new Set(
      Object.values(resources)
        .filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.TABLE_NAME)
        .map((r) => JSON.stringify(r.Properties.Environment.Variables.TABLE_NAME)),
    );
    expect(tableNames).toEqual(new Set([JSON.stringify(restoredTable.tableName)]));
    const streamSources = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.StartingPosition,
    );
    expect(streamSources.length).toBeGreaterThan(0);
    for (const source of streamSources) expect(source.Properties.EventSourceArn).toBe(restoredTable.tableStreamArn);
  });

  it('throttles the stage where the operator set it', () => {
    const stages = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Stage');
    expect(stages.map((s) => s.Properties.DefaultRouteSettings)).toEqual([
      expect.objectContaining({ ThrottlingRateLimit: 3000, ThrottlingBurstLimit: 5000 }),
    ]);
  });

  it('backs the restored table up', () => {
    const selection = Object.values(resources).find((r) => r.Type === 'AWS::Backup::BackupSelection')!;
    expect(JSON.stringify(selection.Properties.BackupSelection.Resources)).toContain(
      `:table/${restoredTable.tableName}`,
    );
  });
});

describe('restoredTableFrom (-c <stage>.tableName, -c <stage>.tableStreamArn)', () => {
  const arn = 'arn:aws:dynamodb:eu-west-1:123456789012:table/pet-api-restored/stream/2026-11-28T09:00:00.000';
  const context = (values: Record<string, string>) => (key: string) => values[key];
  it("takes both of the stage's values or neither, and ignores the other stage's", () => {
    expect(restoredTableFrom(context({}), 'production')).toBeUndefined();
    const production = { 'production.tableName': 'pet-api-restored', 'production.tableStreamArn': arn };
    expect(restoredTableFrom(context(production), 'production')).toEqual({
      tableName: 'pet-api-restored',
      tableStreamArn: arn,
    });
    expect(restoredTableFrom(context(production), 'staging')).toBeUndefined();
    expect(() => restoredTableFrom(context({ 'production.tableName': 'pet-api-restored' }), 'production')).toThrow(
      /-c production.tableName=<restored table> and -c production.tableStreamArn=<its stream ARN> go together/,
    );
    expect(() => restoredTableFrom(context({ 'production.tableStreamArn': arn }), 'production')).toThrow(/go together/);
  });

  it("refuses a stream that is not the table's, and a malformed name", () => {
    for (const tableName of ['another-table', 'a b'])
      expect(() =>
        restoredTableFrom(context({ 'staging.tableName': tableName, 'staging.tableStreamArn': arn }), 'staging'),
      ).toThrow(/go together/);
  });
});

describe('stageThrottleFrom (-c <stage>.throttleRate, -c <stage>.throttleBurst)', () => {
  const context = (values: Record<string, unknown>) => (key: string) => values[key];
  it("takes the stage's own values, each alone or both, as strings from the command line or numbers from cdk.json", () => {
    expect(stageThrottleFrom(context({}), 'production')).toEqual(STAGE_THROTTLE);
    expect(stageThrottleFrom(context({ 'production.throttleRate': '3000' }), 'production')).toEqual({
      rateLimit: 3000,
      burstLimit: STAGE_THROTTLE.burstLimit,
    });
    const both = { 'staging.throttleRate': 800, 'staging.throttleBurst': 1600 };
    expect(stageThrottleFrom(context(both), 'staging')).toEqual({ rateLimit: 800, burstLimit: 1600 });
    expect(stageThrottleFrom(context(both), 'production')).toEqual(STAGE_THROTTLE);
  });

  it.each(['0', '-5', '2.5', '1e3', 'fast', ' 100', 0, 1.5, true])(
    'refuses %j, which would throttle every request or is not a rate',
    (value) => {
      expect(() => stageThrottleFrom(context({ 'staging.throttleRate': value }), 'staging')).toThrow(
        /-c staging.throttleRate must be a whole number of requests a second, at least 1/,
      );
    },
  );
});

describe('cdk-nag AwsSolutions', () => {
  it.each([
    ['a stack', (app: App) => new Stack(app, 'Probe')],
    ['a nested stack', (app: App) => new NestedStack(new Stack(app, 'Probe'), 'Area')],
  ])('fails synthesis on an unacknowledged finding in %s (so the stacks above have none)', (_where, scope) => {
    const app = new App({ outdir: scratch('cdk'), context: { 'aws:cdk:bundling-stacks': [] } });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    new Bucket(scope(app), 'OpenBucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });

  it('acknowledges only reviewed rules, each with a reason', () => {
    const app = new App({ outdir: scratch('cdk'), context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new PetApiStack(app, 'PetApi-staging', { stage: 'staging' });
    const acknowledged = stack.node
      .findAll()
      .flatMap((c) =>
        c.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .map((m) => m.data as unknown),
      )
      .flatMap((data) => Object.entries(data as Record<string, string>))
      .map(([id, reason]) => ({ id, reason }));
    const ours = acknowledged.filter((a) => a.id.startsWith('AwsSolutions::'));
    const ruleIds = new Set(ours.map((a) => a.id.replace(/^AwsSolutions::/, '').replace(/\[.*$/, '')));
    expect([...ruleIds].sort()).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR4',
      'AwsSolutions-IAM4',
      'AwsSolutions-IAM5',
      'AwsSolutions-L1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
    ]);
    for (const a of ours) expect(a.reason.length).toBeGreaterThan(30);
  });
});

describe('catalogue images on deploy', () => {
  it("are uploaded into the media bucket's catalogue/ prefix when rendered", () => {
    const dir = scratch('catalogue');
    writeFileSync(join(dir, 'abc.jpg'), 'jpeg bytes');
    const app = new App({ outdir: scratch('cdk'), context: { 'aws:cdk:bundling-stacks': [] } });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const stack = new PetApiStack(app, 'PetApi-staging', { stage: 'staging', catalogueImagesDir: dir });

    app.synth();

    Template.fromStack(stack).hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'catalogue/',
      Prune: false,
      SystemMetadata: { 'content-disposition': 'inline' },
    });
  });
});
