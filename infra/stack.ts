import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { ApiDomain } from './constructs/api-domain.ts';
import { ApiDistribution, FirewallStack, OriginSecret } from './constructs/api-firewall.ts';
import type { Edge } from './edge.ts';
import type { Construct } from 'constructs';
import { routes, fallbackRoute } from '../functions/routes.ts';
import { ApiRoutes } from './constructs/api-routes.ts';
import { DataTable, type RestoredTable } from './constructs/data-table.ts';
import { Consumers } from './constructs/consumers.ts';
import { Media } from './constructs/media.ts';
import { ffmpegLayer, sharpLayer as mediaSharpLayer } from './constructs/media-layers.ts';
import { WebhookSecrets } from './constructs/webhook-secrets.ts';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Monitoring } from './constructs/monitoring.ts';
import { ReferenceData } from './constructs/reference-data.ts';
import { TokenSecret } from './constructs/token-secret.ts';
import { Releases } from './constructs/releases.ts';
import { STAGE_THROTTLE, type StageThrottle } from './constructs/stage-throttle.ts';
import { ANALYSIS_MODEL_BY_STAGE, DEPLOY_STRATEGY_BY_STAGE, type DeployStrategy, type Stage } from './stage.ts';

export interface PetApiStackProps extends StackProps {
  stage: Stage;
  alarmEmail?: string;
  /** Sender of the owner e-mails (SES-verified); `-c mailFrom=…`. */
  mailFrom?: string;
  /** Rendered catalogue images to upload to the media bucket (infra/app.ts passes .local/images/catalogue). */
  catalogueImagesDir?: string;
  /** Bedrock model id for photo analysis; `-c analysisModel=…`, else the stage's default. */
  analysisModelId?: string;
  /** The Bedrock image model for portraits (`-c portraitModel=…`); Nova Canvas by default. */
  portraitModelId?: string;
  /** How deploys reach traffic (`-c deploy=canary|all-at-once`); by default the stage's (infra/stage.ts). */
  deployStrategy?: DeployStrategy;
  /** A table restored from a backup that the stage uses instead of its own (docs/operations.md#backups-and-restore). */
  restoredTable?: RestoredTable | undefined;
  /** The stage's custom domain and firewall (infra/edge.ts); none by default. */
  edge?: Edge;
  /** Behind the firewall: the web ACL of the stage's FirewallStack (stageStacks passes it). */
  webAclArn?: string;
  /** The HTTP API stage's throttle (`-c <stage>.throttleRate`, `-c <stage>.throttleBurst`); 500/1,000 by default. */
  throttle?: StageThrottle;
}

/** Amazon Nova Canvas: image generation conditioned on the source's edges (available in us-east-1, eu-west-1, ap-northeast-1). */
export const DEFAULT_PORTRAIT_MODEL = 'amazon.nova-canvas-v1:0';

/** One stack per stage; staging and production share nothing. */
export class PetApiStack extends Stack {
  constructor(scope: Construct, id: string, props: PetApiStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const edge = props.edge ?? { waf: false };

    const data = new DataTable(this, 'Data', { stage, restoredTable: props.restoredTable });
    const media = new Media(this, 'Media', { stage, catalogueImagesDir: props.catalogueImagesDir });
    const tokenSecret = new TokenSecret(this, 'TokenSecret', { stage });
    const originSecret = edge.waf ? new OriginSecret(this, 'OriginSecret', { stage }).secret : undefined;
    // One log group for every function keeps the stack small; stream names carry the function name.
    const logGroup = new LogGroup(this, 'FunctionLogs', {
      retention: stage === 'production' ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const monitoring = new Monitoring(this, 'Monitoring', { alarmEmail: props.alarmEmail, service: this.stackName });
    const releases = new Releases(this, 'Releases', {
      strategy: props.deployStrategy ?? DEPLOY_STRATEGY_BY_STAGE[stage],
      monitoring,
    });
    // sharp and libvips for the functions that process images (consumers and analysis routes alike).
    const sharpLayer = mediaSharpLayer(this);
    const webhookSecrets = new WebhookSecrets(this, 'Webhooks', { stage });
    const consumers = new Consumers(this, 'Consumers', {
      stage,
      table: data.table,
      bucket: media.bucket,
      mediaBaseUrl: media.baseUrl,
      webhookSecretsKey: webhookSecrets.key,
      mailFrom: props.mailFrom ?? 'Pet API <no-reply@example.com>',
      sharpLayer,
      ffmpegLayer: ffmpegLayer(this),
      portraitModelId: props.portraitModelId ?? DEFAULT_PORTRAIT_MODEL,
      logGroup,
      monitoring,
      releases,
    });
    const api = new ApiRoutes(this, 'Api', {
      stage,
      routes,
      fallbackRoute,
      table: data.table,
      requestsTable: data.requestsTable,
      tokenSecret: tokenSecret.secret,
      mediaBaseUrl: media.baseUrl,
      mediaBucket: media.bucket,
      webhookSecretsKey: webhookSecrets.key,
      queues: consumers.queues,
      logGroup,
      analysisModelId: props.analysisModelId ?? ANALYSIS_MODEL_BY_STAGE[stage],
      monitoring,
      releases,
      sharpLayer,
      originSecret,
      throttle: props.throttle ?? STAGE_THROTTLE,
    });
    monitoring.alarmOnApiErrors(api.httpApi);
    monitoring.alarmOnServiceHealth(api.httpApi);
    releases.watchStage(api.httpApi);
    new ReferenceData(this, 'ReferenceData', { stage, table: data.table, logGroup });

    monitoring.addDashboard(api.httpApi);

    const endpoint = this.addEdge(api, edge, media, originSecret, props);

    new CfnOutput(this, 'ApiUrl', { value: `${endpoint}/v1` });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'MediaUrl', { value: media.baseUrl });
    // The operator's photo import (npm run images:import) stores photos here.
    new CfnOutput(this, 'MediaBucketName', { value: media.bucket.bucketName });
  }

  /**
   * The stage's edge (infra/edge.ts), and where callers reach the API through it: the HTTP API's own endpoint; its
   * custom domain (-c domainName); or, behind the firewall (-c waf=true), the CloudFront distribution, under the custom
   * domain if there is one.
   */
  private addEdge(
    api: ApiRoutes,
    edge: Edge,
    media: Media,
    originSecret: Secret | undefined,
    props: PetApiStackProps,
  ): string {
    const { domain } = edge;
    let dnsTarget: string | undefined;
    if (edge.waf) {
      if (!props.webAclArn || !originSecret) throw new Error('-c waf=true needs the stage built by stageStacks');
      const cdn = new ApiDistribution(this, 'Edge', {
        stage: props.stage,
        httpApi: api.httpApi,
        webAclArn: props.webAclArn,
        originSecret,
        edge,
        logBucket: media.accessLogs,
      });
      new CfnOutput(this, 'OriginSecretArn', { value: originSecret.secretArn });
      new CfnOutput(this, 'ApiDistributionId', { value: cdn.distribution.distributionId });
      dnsTarget = cdn.distribution.distributionDomainName;
    } else if (domain) {
      dnsTarget = new ApiDomain(this, 'Domain', { domain, httpApi: api.httpApi, stage: api.stage }).dnsTarget;
    } else return api.httpApi.apiEndpoint;
    // Without a hosted zone the operator points the name at this target (docs/operations.md#custom-domain).
    if (domain && !domain.hostedZoneId) new CfnOutput(this, 'DnsTarget', { value: dnsTarget });
    return domain ? `https://${domain.domainName}` : `https://${dnsTarget}`;
  }
}

/**
 * The stacks of a stage: `PetApi-<stage>` and, behind the firewall, `PetApi-<stage>-Firewall` in us-east-1 with the
 * web ACL (CloudFront takes web ACLs from there only), whose ARN CDK carries into the stage's region.
 */
export function stageStacks(
  scope: Construct,
  id: string,
  props: Omit<PetApiStackProps, 'webAclArn'>,
): { stack: PetApiStack; firewall?: FirewallStack } {
  if (!props.edge?.waf) return { stack: new PetApiStack(scope, id, props) };
  const firewall = new FirewallStack(scope, `${id}-Firewall`, {
    stage: props.stage,
    env: { account: props.env?.account },
    description: `AWS WAF web ACL in front of the Pet API (${props.stage})`,
  });
  const stack = new PetApiStack(scope, id, { ...props, webAclArn: firewall.webAclArn, crossRegionReferences: true });
  return { stack, firewall };
}
