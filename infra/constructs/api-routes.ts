import { Duration, NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  type CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import {
  type Alias,
  type ILayerVersion,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsVersions,
} from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { functionRole, nodeFunction } from './lambda-defaults.ts';
import { MEDIA_ARCHITECTURE } from './media-layers.ts';
import { routeExternalModules } from '../lambda-bundle.ts';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_BASE_PATH, type RouteDef } from '../../shared/http/route-def.ts';
import type { QueueId } from '../../events/consumers.ts';
import { AccessGrants } from './grants.ts';
import { CORS } from '../../shared/http/cors.ts';
import { accessWithGuards } from '../../shared/http/guards.ts';
import type { Stage } from '../stage.ts';
import type { Monitoring } from './monitoring.ts';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { StageThrottle } from './stage-throttle.ts';
import type { Releases } from './releases.ts';
import { METRIC } from '../../shared/observability.ts';

export interface ApiRoutesProps {
  stage: Stage;
  routes: readonly RouteDef[];
  fallbackRoute: RouteDef;
  table: ITable;
  requestsTable: ITable;
  tokenSecret: ISecret;
  mediaBaseUrl: string;
  mediaBucket: IBucket;
  webhookSecretsKey: IKey;
  /** The queues routes may send to. */
  queues: Pick<Record<QueueId, IQueue>, 'webhookDeliveries' | 'portraits'>;
  logGroup: LogGroup;
  /** Bedrock model id the routes declaring `visionModel` invoke. */
  analysisModelId: string;
  /** sharp for the analysis routes, which downscale photos before they go to the model. */
  sharpLayer: ILayerVersion;
  /** Each route function's p99 duration is alarmed into its topic. */
  monitoring: Monitoring;
  /** Publishes each function behind the alias its integration invokes (and, by canary, its deployment group). */
  releases: Releases;
  /** Behind the firewall: the secret every function checks requests against (shared/http/origin-check.ts). */
  originSecret?: ISecret | undefined;
  /** Requests a second and burst across the stage. */
  throttle: StageThrottle;
}

/**
 * The p99 duration a route should stay under: analyses wait on the model (25 s budget), uploads move megabytes,
 * everything else is a few DynamoDB calls.
 */
export function latencyBudget(route: RouteDef): Duration {
  if (route.access.visionModel) return Duration.seconds(20);
  if (Object.values(route.access.media ?? {}).some((rights) => rights.includes('write'))) return Duration.seconds(5);
  return Duration.seconds(1);
}

/** An analysis waits up to this long for the model: under API Gateway's 30 s integration limit. */
export const ANALYSIS_TIMEOUT = Duration.seconds(25);

/**
 * Route-table entries by area: the folder of their handler under `functions/` (`pets/create-pet` → `pets`). Derived,
 * never listed, so a route added to a new folder gets its own nested stack without touching the infra code.
 */
export function routesByArea(routes: readonly RouteDef[]): Map<string, RouteDef[]> {
  const areas = new Map<string, RouteDef[]>();
  for (const route of routes) {
    const area = route.entry.split('/')[0]!;
    areas.set(area, [...(areas.get(area) ?? []), route]);
  }
  return areas;
}

/**
 * One Lambda function per route of the route table behind an HTTP API. Functions with the same declared
 * access share one role (least privilege derived from the table, and about 15 roles instead of 75).
 *
 * The HTTP API, its stage, the `$default` fallback and the shared roles stay in the parent stack; each area's
 * functions, routes, integrations and invoke permissions live in one nested stack per area (`PetsRoutes`, …), fed the
 * table, bucket, queues, roles and API id as parameters, so no template nears CloudFormation's 500 resources.
 */
export class ApiRoutes extends Construct {
  readonly httpApi: HttpApi;
  /** The `$default` stage, which a custom domain maps. */
  readonly stage: HttpStage;
  readonly functions = new Map<string, NodejsFunction>();
  private readonly roles = new Map<string, Role>();
  private readonly grants: AccessGrants;
  readonly logGroup: LogGroup;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ApiRoutesProps,
  ) {
    super(scope, id);
    this.logGroup = props.logGroup;
    this.grants = new AccessGrants({
      table: props.table,
      requestsTable: props.requestsTable,
      tokenSecret: props.tokenSecret,
      mediaBucket: props.mediaBucket,
      mediaBaseUrl: props.mediaBaseUrl,
      webhookSecretsKey: props.webhookSecretsKey,
      queues: props.queues,
      analysisModelId: props.analysisModelId,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const fallback = this.routeFunction(this, props.fallbackRoute);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: `Pet API (${props.stage})`,
      defaultIntegration: new HttpLambdaIntegration('DefaultIntegration', this.release(fallback, props.fallbackRoute)),
      corsPreflight: {
        allowOrigins: ['*'],
        allowMethods: CORS.allowMethods.map((m) => m as CorsHttpMethod),
        allowHeaders: [...CORS.allowHeaderList],
        exposeHeaders: [...CORS.exposeHeaderList],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
      createDefaultStage: false,
    });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { ...props.throttle },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
    });

    for (const [area, areaRoutes] of routesByArea(props.routes)) {
      const areaStack = new NestedStack(this, `${constructName(area)}Routes`, {
        description: `Pet API ${area} routes (${props.stage})`,
      });
      for (const route of areaRoutes) {
        const name = constructName(route.id);
        const fn = this.routeFunction(areaStack, route);
        new HttpRoute(areaStack, `${name}Route`, {
          httpApi: this.httpApi,
          routeKey: HttpRouteKey.with(`${API_BASE_PATH}${route.path}`, HttpMethod[route.method]),
          integration: new HttpLambdaIntegration(`${name}Integration`, this.release(fn, route)),
        });
        this.alarmOnLatency(fn, route);
      }
      this.acknowledgeAuthInFunctions(areaStack);
    }
    this.acknowledgeAuthInFunctions(this.httpApi);
  }

  /** p99 over 5 minutes above the route's budget in 2 of 3 windows; next to the function, in its area's stack. */
  private alarmOnLatency(fn: NodejsFunction, route: RouteDef): void {
    const budget = latencyBudget(route);
    this.props.monitoring.alarm(
      new Alarm(fn, 'LatencyAlarm', {
        alarmDescription: `p99 duration of ${route.method} ${API_BASE_PATH}${route.path} (${route.id}) above ${budget.toMilliseconds()} ms.`,
        metric: fn.metricDuration({ period: Duration.minutes(5), statistic: 'p99' }),
        threshold: budget.toMilliseconds(),
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** The alias API Gateway invokes; a deploy of the route is judged by its crashes and its 5xx answers. */
  private release(fn: NodejsFunction, route: RouteDef): Alias {
    const answers5xx = this.props.monitoring.metric(
      METRIC.requests,
      { route: route.id, status_class: '5xx' },
      Duration.minutes(1),
    );
    return this.props.releases.release(fn, `${route.method} ${API_BASE_PATH}${route.path}`, answers5xx);
  }

  private acknowledgeAuthInFunctions(scope: Construct): void {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        "Every route authenticates in its function from the route table (API key, bearer or admin), so the spec's 401/403 error JSON is exact.",
    });
  }

  private routeFunction(scope: Construct, route: RouteDef): NodejsFunction {
    const { originSecret } = this.props;
    const needsSecret = route.access.tokenSecret === 'read' || originSecret !== undefined;
    const access = accessWithGuards(route);
    const fn = nodeFunction(scope, `${constructName(route.id)}Fn`, {
      entry: `functions/${route.entry}.ts`,
      stage: this.props.stage,
      role: this.roleFor(access),
      logGroup: this.logGroup,
      description: `${route.method} ${API_BASE_PATH}${route.path}`,
      ...(route.bundledFiles && { bundledFiles: route.bundledFiles }),
      environment: {
        ...this.grants.environment(access),
        ...(route.access.visionModel && { ANALYSIS_TIMEOUT_MS: String(ANALYSIS_TIMEOUT.toMilliseconds()) }),
        ...(originSecret && { ORIGIN_SECRET_ARN: originSecret.secretArn }),
      },
      // Model calls take seconds; API Gateway gives up at 30 s, so the function stops just before. sharp comes from
      // the media layer (x86_64), as for the photo processors.
      ...(route.access.visionModel && {
        timeout: Duration.seconds(29),
        memorySize: 1024,
        architecture: MEDIA_ARCHITECTURE,
        layers: [this.props.sharpLayer],
        externalModules: routeExternalModules(route),
      }),
      ...(needsSecret && {
        paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103),
      }),
    });
    this.functions.set(route.id, fn);
    return fn;
  }

  /** Routes with the same declared access share one role. */
  private roleFor(access: RouteDef['access']): Role {
    const key = accessKey(access);
    const existing = this.roles.get(key);
    if (existing) return existing;
    const role = functionRole(this, `${roleName(access)}Role`, this.logGroup, `Route functions with access ${key}`);
    this.grants.grant(role, access);
    this.props.originSecret?.grantRead(role);
    this.roles.set(key, role);
    return role;
  }
}

/** A declaration as JSON with every object's keys sorted: equal declarations, equal keys (one role each). */
export function accessKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(accessKey).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${accessKey(v)}`).join(',')}}`;
}

/** `{ table: 'read', media: { 'pets/': ['read'] } }` → `TableReadMediaPetsRead`. */
function roleName(access: RouteDef['access']): string {
  const words = (value: unknown): string =>
    typeof value === 'object' && value !== null
      ? Object.entries(value)
          .map(([k, v]) => (Array.isArray(value) ? words(v) : `${k}-${words(v)}`))
          .join('-')
      : String(value);
  return (
    Object.entries(access)
      .map(([k, v]) => constructName(`${k}-${words(v)}`))
      .join('') || 'NoData'
  );
}

/** `accounts.create` → `AccountsCreate`. */
export function constructName(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
