import { type CfnElement, Duration, NestedStack, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  type CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { type ILayerVersion, ParamsAndSecretsLayerVersion, ParamsAndSecretsVersions } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { functionRole, grantTable, nodeFunction } from './lambda-defaults.ts';
import { MEDIA_ARCHITECTURE } from './media-layers.ts';
import { routeExternalModules } from '../lambda-bundle.ts';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_BASE_PATH, type RouteAccess, type RouteDef } from '../../shared/http/route-def.ts';
import { CORS } from '../../shared/http/cors.ts';
import { accessWithGuards } from '../../shared/http/guards.ts';
import type { Stage } from '../stage.ts';
import type { Monitoring } from './monitoring.ts';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';

/** DynamoDB actions per declared access; no Scan for anyone. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
} as const;

/**
 * Requests-table actions (shared/http/guards.ts): read = the quota route's windows (all of an account's in one
 * BatchGetItem, so never GetItem); write = the pipeline's guards (rate windows: UpdateItem; idempotency records:
 * PutItem to claim, UpdateItem to store, DeleteItem to give back, and GetItem, which Powertools falls back to when a
 * refused claim does not return the record).
 */
export const REQUESTS_TABLE_ACTIONS = {
  read: ['dynamodb:BatchGetItem'],
  write: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
} as const;

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
  deliveriesQueue: IQueue;
  portraitsQueue: IQueue;
  logGroup: LogGroup;
  /** Bedrock model id the routes declaring `visionModel` invoke. */
  analysisModelId: string;
  /** sharp for the analysis routes, which downscale photos before they go to the model. */
  sharpLayer: ILayerVersion;
  /** Each route function's p99 duration is alarmed into its topic. */
  monitoring: Monitoring;
}

/**
 * The p99 duration a route should stay under: analyses wait on the model (25 s budget), uploads move megabytes,
 * everything else is a few DynamoDB calls.
 */
export function latencyBudget(route: RouteDef): Duration {
  if (route.access.visionModel) return Duration.seconds(20);
  if (route.access.media === 'write' || route.access.petMedia === 'write') return Duration.seconds(5);
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
  readonly functions = new Map<string, NodejsFunction>();
  private readonly roles = new Map<string, Role>();
  readonly logGroup: LogGroup;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ApiRoutesProps,
  ) {
    super(scope, id);
    this.logGroup = props.logGroup;
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const fallback = this.routeFunction(this, props.fallbackRoute);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: `Pet API (${props.stage})`,
      defaultIntegration: new HttpLambdaIntegration('DefaultIntegration', fallback),
      corsPreflight: {
        allowOrigins: ['*'],
        allowMethods: CORS.allowMethods.map((m) => m as CorsHttpMethod),
        allowHeaders: [...CORS.allowHeaderList],
        exposeHeaders: [...CORS.exposeHeaderList],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
      createDefaultStage: false,
    });
    this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 500, burstLimit: 1000 },
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
          integration: new HttpLambdaIntegration(`${name}Integration`, fn),
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

  private acknowledgeAuthInFunctions(scope: Construct): void {
    Validations.of(scope).acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        "Every route authenticates in its function from the route table (API key, bearer or admin), so the spec's 401/403 error JSON is exact.",
    });
  }

  private routeFunction(scope: Construct, route: RouteDef): NodejsFunction {
    const needsSecret = route.access.tokenSecret === 'read';
    const access = accessWithGuards(route);
    const fn = nodeFunction(scope, `${constructName(route.id)}Fn`, {
      entry: `functions/${route.entry}.ts`,
      stage: this.props.stage,
      role: this.roleFor(access),
      logGroup: this.logGroup,
      description: `${route.method} ${API_BASE_PATH}${route.path}`,
      ...(route.bundledFiles && { bundledFiles: route.bundledFiles }),
      environment: {
        TABLE_NAME: this.props.table.tableName,
        ...(access.requests && { REQUESTS_TABLE_NAME: this.props.requestsTable.tableName }),
        MEDIA_BASE_URL: this.props.mediaBaseUrl,
        ...(needsSecret && { TOKEN_SECRET_ARN: this.props.tokenSecret.secretArn }),
        ...((route.access.media || route.access.petMedia) && { MEDIA_BUCKET: this.props.mediaBucket.bucketName }),
        ...(route.access.webhookSecrets && { WEBHOOK_KMS_KEY_ID: this.props.webhookSecretsKey.keyArn }),
        ...(route.access.sendsTo === 'webhookDeliveries' && {
          WEBHOOK_DELIVERIES_QUEUE_URL: this.props.deliveriesQueue.queueUrl,
        }),
        ...(route.access.sendsTo === 'portraits' && { PORTRAITS_QUEUE_URL: this.props.portraitsQueue.queueUrl }),
        ...(route.access.visionModel && {
          ANALYSIS_PROVIDER: 'bedrock',
          ANALYSIS_MODEL: this.props.analysisModelId,
          ANALYSIS_TIMEOUT_MS: String(ANALYSIS_TIMEOUT.toMilliseconds()),
        }),
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

  /**
   * Pet media is served by presigned GET URLs, which carry the signing role's rights: read = GetObject under pets/;
   * write adds putting, listing (a pet's prefixes, to delete them) and deleting, plus the multipart-upload calls.
   */
  private grantPetMedia(role: Role, level: 'read' | 'write'): void {
    const bucket = this.props.mediaBucket;
    const actions =
      level === 'read'
        ? ['s3:GetObject']
        : ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'];
    role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [bucket.arnForObjects('pets/*')] }));
    if (level === 'write')
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': ['pets/*'] } },
        }),
      );
    Validations.of(role).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>/pets/*]`,
      reason: 'Pet media keys are per account, pet and item, created at run time; the grant stops at the pets/ prefix.',
    });
  }

  private roleFor(access: RouteAccess): Role {
    const key = JSON.stringify(access, Object.keys(access).sort());
    const existing = this.roles.get(key);
    if (existing) return existing;
    const name =
      Object.entries(access)
        .map(([k, v]) => constructName(`${k}-${v}`))
        .join('') || 'NoData';
    const role = functionRole(this, `${name}Role`, this.logGroup, `Route functions with access ${key}`);
    if (access.table) grantTable(role, this.props.table, TABLE_ACTIONS[access.table], true);
    if (access.requests) grantTable(role, this.props.requestsTable, REQUESTS_TABLE_ACTIONS[access.requests], false);
    if (access.tokenSecret) this.props.tokenSecret.grantRead(role);
    if (access.media) {
      const bucketId = Stack.of(this).getLogicalId(this.props.mediaBucket.node.defaultChild as CfnElement);
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:PutObject', 's3:DeleteObject'],
          resources: [this.props.mediaBucket.arnForObjects('uploads/*')],
        }),
      );
      // Deleting an image removes its served copy, written by the upload processor.
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:DeleteObject'],
          resources: [this.props.mediaBucket.arnForObjects('images/*')],
        }),
      );
      for (const prefix of ['uploads', 'images'])
        Validations.of(role).acknowledge({
          id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}/*]`,
          reason:
            'Upload routes write and delete originals under uploads/ and delete served copies under images/ only; each upload has its own keys.',
        });
    }
    if (access.petMedia) this.grantPetMedia(role, access.petMedia);
    // Only Encrypt: grantEncrypt would add ReEncrypt* and GenerateDataKey*, which no route needs.
    if (access.webhookSecrets)
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['kms:Encrypt'], resources: [this.props.webhookSecretsKey.keyArn] }),
      );
    if (access.sendsTo === 'webhookDeliveries') this.props.deliveriesQueue.grantSendMessages(role);
    if (access.sendsTo === 'portraits') this.props.portraitsQueue.grantSendMessages(role);
    if (access.visionModel)
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [bedrockModelArn(Stack.of(this), this.props.analysisModelId)],
        }),
      );
    this.roles.set(key, role);
    return role;
  }
}

/** The one foundation model a stage's analysis routes may invoke (Converse needs bedrock:InvokeModel on it). */
export const bedrockModelArn = (stack: Stack, modelId: string) =>
  `arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${modelId}`;

/** `accounts.create` → `AccountsCreate`. */
export function constructName(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
