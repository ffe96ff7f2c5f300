import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { routes, fallbackRoute } from '../functions/routes.ts';
import { ApiRoutes } from './constructs/api-routes.ts';
import { DataTable } from './constructs/data-table.ts';
import { EventsPipeline } from './constructs/events-pipeline.ts';
import { Media } from './constructs/media.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { ReferenceData } from './constructs/reference-data.ts';
import { TokenSecret } from './constructs/token-secret.ts';
import type { Stage } from './stage.ts';

export interface PetApiStackProps extends StackProps {
  stage: Stage;
  alarmEmail?: string;
  /** Rendered catalogue images to upload to the media bucket (infra/app.ts passes .local/images/catalogue). */
  catalogueImagesDir?: string;
}

/** One stack per stage; staging and production share nothing. */
export class PetApiStack extends Stack {
  constructor(scope: Construct, id: string, props: PetApiStackProps) {
    super(scope, id, props);
    const { stage } = props;

    const data = new DataTable(this, 'Data', { stage });
    const media = new Media(this, 'Media', { stage, catalogueImagesDir: props.catalogueImagesDir });
    const tokenSecret = new TokenSecret(this, 'TokenSecret', { stage });
    const api = new ApiRoutes(this, 'Api', { stage, routes, fallbackRoute, table: data.table, tokenSecret: tokenSecret.secret, mediaBaseUrl: media.baseUrl });
    new ReferenceData(this, 'ReferenceData', { table: data.table, logGroup: api.logGroup });
    const monitoring = new Monitoring(this, 'Monitoring', { api: api.httpApi, alarmEmail: props.alarmEmail });
    new EventsPipeline(this, 'Events', { table: data.table, logGroup: api.logGroup, monitoring, mediaBaseUrl: media.baseUrl });

    new CfnOutput(this, 'ApiUrl', { value: `${api.httpApi.apiEndpoint}/v1` });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'MediaUrl', { value: media.baseUrl });
  }
}
