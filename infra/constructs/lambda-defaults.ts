import { dirname, join } from 'node:path';
import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  type ILayerVersion,
  LoggingFormat,
  Runtime,
  type ParamsAndSecretsLayerVersion,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import type { Size } from 'aws-cdk-lib';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct, IConstruct } from 'constructs';
import { LAMBDA_BUNDLE, POWERTOOLS_LAYER_MODULES } from '../lambda-bundle.ts';
import { powertoolsLayer } from './powertools-layer.ts';
import { METRICS_NAMESPACE } from '../../shared/observability.ts';
import type { Stage } from '../stage.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface NodeFunctionProps {
  /** Source file relative to the repository root. */
  entry: string;
  /** Its STAGE: a function without one would load as the local stage, local-only settings allowed (shared/config.ts). */
  stage: Stage;
  role: Role;
  logGroup: ILogGroup;
  description: string;
  environment: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  paramsAndSecrets?: ParamsAndSecretsLayerVersion;
  /** Media processors run on x86_64, where their native tools come from (infra/constructs/media-layers.ts). */
  architecture?: Architecture;
  layers?: ILayerVersion[];
  /** Modules provided by a layer instead of the bundle (e.g. sharp). */
  externalModules?: string[];
  ephemeralStorageSize?: Size;
  /** Files the handler reads at run time (paths in the repository), copied into the package at the same path. */
  bundledFiles?: readonly string[];
}

/** The stage's stack (the root above any nested stack): its name is the `service` of every log line and metric. */
export function stageStack(scope: IConstruct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}

/**
 * A Node.js 22 arm64 function bundled by local esbuild (ESM, minified, external source maps, SDK bundled), traced by
 * X-Ray, with Powertools from the Powertools layer.
 */
export function nodeFunction(scope: Construct, id: string, props: NodeFunctionProps): NodejsFunction {
  const fn = new NodejsFunction(scope, id, {
    entry: join(ROOT, props.entry),
    handler: 'handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: props.architecture ?? Architecture.ARM_64,
    layers: [powertoolsLayer(scope), ...(props.layers ?? [])],
    tracing: Tracing.ACTIVE,
    ...(props.ephemeralStorageSize && { ephemeralStorageSize: props.ephemeralStorageSize }),
    memorySize: props.memorySize ?? 512,
    timeout: props.timeout ?? Duration.seconds(10),
    role: props.role,
    logGroup: props.logGroup,
    loggingFormat: LoggingFormat.JSON,
    description: props.description,
    environment: {
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: stageStack(scope).stackName,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      STAGE: props.stage,
      ...props.environment,
    },
    ...(props.paramsAndSecrets && { paramsAndSecrets: props.paramsAndSecrets }),
    projectRoot: ROOT,
    depsLockFilePath: join(ROOT, 'package-lock.json'),
    bundling: {
      ...LAMBDA_BUNDLE,
      format: OutputFormat.ESM,
      mainFields: [...LAMBDA_BUNDLE.mainFields],
      // Bundle the AWS SDK too: pinned, tested versions and a faster cold start than the runtime's copy.
      externalModules: [...POWERTOOLS_LAYER_MODULES, ...(props.externalModules ?? [])],
      ...(props.bundledFiles?.length && { commandHooks: copyIntoBundle(props.bundledFiles) }),
    },
  });
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions::AwsSolutions-L1',
    reason: 'Node.js 22 is the runtime the code is built and tested on (middy 7 needs >= 22); 24 follows once tested.',
  });
  return fn;
}

/**
 * Bundling hooks that copy files (or a folder, such as the console's build) next to the bundle at their repository
 * path (node_modules/… for package files).
 */
function copyIntoBundle(files: readonly string[]) {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) =>
      files.map((file) => {
        const target = join(outputDir, file);
        return `mkdir -p "${dirname(target)}" && cp -R "${join(inputDir, file)}" "${target}"`;
      }),
  };
}

/**
 * A resource's ARN as a cdk-nag finding writes it: `<LogicalId.Arn>` for one of the stack, the ARN itself (pseudo
 * parameters as `<AWS::Region>`) for an imported one, such as a restored table.
 */
const arnToken = (resource: IConstruct, arn: string) => {
  const cfn = resource.node.defaultChild as CfnElement | undefined;
  return cfn ? `<${Stack.of(resource).getLogicalId(cfn)}.Arn>` : asNagWrites(Stack.of(resource).resolve(arn));
};

function asNagWrites(value: unknown): string {
  if (typeof value === 'string') return value;
  const intrinsic = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]] };
  if (intrinsic.Ref) return `<${intrinsic.Ref}>`;
  if (intrinsic['Fn::Join']) return intrinsic['Fn::Join'][1].map(asNagWrites).join(intrinsic['Fn::Join'][0]);
  throw new Error(`no cdk-nag rendering for ${JSON.stringify(value)}`);
}

/** A role Lambda can assume that may write to the given log group (and nothing else yet). */
export function functionRole(
  scope: Construct,
  id: string,
  logGroup: ILogGroup & IConstruct,
  description: string,
): Role {
  const role = new Role(scope, id, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description });
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [`${logGroup.logGroupArn}:*`],
    }),
  );
  Validations.of(role).acknowledge({
    id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
    reason: 'X-Ray active tracing: xray:PutTraceSegments and PutTelemetryRecords have no resource-level permissions.',
  });
  Validations.of(role).acknowledge({
    id: `AwsSolutions::AwsSolutions-IAM5[Resource::${arnToken(logGroup, logGroup.logGroupArn)}:*]`,
    reason:
      'Lambda creates one log stream per function instance inside the shared log group; names are not known in advance.',
  });
  return role;
}

/** Grants DynamoDB actions on the table and, when `indexes`, on its GSIs. */
export function grantTable(role: Role, table: ITable & IConstruct, actions: readonly string[], indexes: boolean): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: [...actions],
      resources: indexes ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn],
    }),
  );
  if (!indexes) return;
  Validations.of(role).acknowledge({
    id: `AwsSolutions::AwsSolutions-IAM5[Resource::${arnToken(table, table.tableArn)}/index/*]`,
    reason:
      "Queries on the single table's global secondary indexes (docs/ARCHITECTURE.md access patterns); actions stay limited.",
  });
}
