import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { routes, fallbackRoute } from '../functions/routes.ts';
import { ApiRoutes } from './constructs/api-routes.ts';
import { DataTable } from './constructs/data-table.ts';
import { EventsPipeline } from './constructs/events-pipeline.ts';
import { Media } from './constructs/media.ts';
import { PetMedia } from './constructs/pet-media.ts';
import { UploadProcessing } from './constructs/upload-processing.ts';
import { Webhooks } from './constructs/webhooks.ts';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Monitoring } from './constructs/monitoring.ts';
import { ReferenceData } from './constructs/reference-data.ts';
import { TokenSecret } from './constructs/token-secret.ts';
import { ANALYSIS_MODEL_BY_STAGE, type Stage } from './stage.ts';

export interface PetApiStackProps extends StackProps {
  stage: Stage;
  alarmEmail?: string;
  /** Sender of the owner e-mails (SES-verified); `-c mailFrom=…`. */
  mailFrom?: string;
  /** Rendered catalogue images to upload to the media bucket (infra/app.ts passes .local/images/catalogue). */
  catalogueImagesDir?: string;
  /** Bedrock model id for photo analysis; `-c analysisModel=…`, else the stage's default. */
  analysisModelId?: string;
}

/** One stack per stage; staging and production share nothing. */
export class PetApiStack extends Stack {
  constructor(scope: Construct, id: string, props: PetApiStackProps) {
    super(scope, id, props);
    const { stage } = props;

    const data = new DataTable(this, 'Data', { stage });
    const media = new Media(this, 'Media', { stage, catalogueImagesDir: props.catalogueImagesDir });
    const tokenSecret = new TokenSecret(this, 'TokenSecret', { stage });
    // One log group for every function keeps the stack small; stream names carry the function name.
    const logGroup = new LogGroup(this, 'FunctionLogs', {
      retention: stage === 'production' ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const monitoring = new Monitoring(this, 'Monitoring', { alarmEmail: props.alarmEmail });
    const events = new EventsPipeline(this, 'Events', {
      table: data.table,
      logGroup,
      monitoring,
      mediaBaseUrl: media.baseUrl,
    });
    const webhooks = new Webhooks(this, 'Webhooks', {
      stage,
      table: data.table,
      eventsQueue: events.queue,
      logGroup,
      monitoring,
      mediaBaseUrl: media.baseUrl,
      mailFrom: props.mailFrom ?? 'Pet API <no-reply@example.com>',
    });
    new UploadProcessing(this, 'Uploads', { table: data.table, bucket: media.bucket, logGroup, monitoring });
    const petMedia = new PetMedia(this, 'PetMedia', { table: data.table, bucket: media.bucket, logGroup, monitoring });
    const api = new ApiRoutes(this, 'Api', {
      stage,
      routes,
      fallbackRoute,
      table: data.table,
      tokenSecret: tokenSecret.secret,
      mediaBaseUrl: media.baseUrl,
      mediaBucket: media.bucket,
      webhookSecretsKey: webhooks.secretsKey,
      deliveriesQueue: webhooks.deliveriesQueue,
      logGroup,
      analysisModelId: props.analysisModelId ?? ANALYSIS_MODEL_BY_STAGE[stage],
      sharpLayer: petMedia.sharp,
    });
    monitoring.alarmOnApiErrors(api.httpApi);
    new ReferenceData(this, 'ReferenceData', { table: data.table, logGroup });

    new CfnOutput(this, 'ApiUrl', { value: `${api.httpApi.apiEndpoint}/v1` });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'MediaUrl', { value: media.baseUrl });
  }
}
