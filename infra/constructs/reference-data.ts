import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CustomResource, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { REFERENCE_DATA_FILES } from '../../shared/domain/reference/data-files.ts';
import { functionRole, grantTable, nodeFunction, ROOT } from './lambda-defaults.ts';
import type { Stage } from '../stage.ts';

/** What the loader writes: the reference sets and the image catalogue (its illustrations and real photos) it indexes. */
const DEPLOYED_DATA_FILES = [...REFERENCE_DATA_FILES, 'data/images.json', 'data/photos.json'];

/** Hash of the committed data sets: the custom resource re-runs only when the data changed. */
export function referenceDataVersion(): string {
  const hash = createHash('sha256');
  for (const file of DEPLOYED_DATA_FILES) hash.update(file).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Deploy-time loader: writes the reference data sets and the image search index into the stage's table whenever they change. */
export class ReferenceData extends Construct {
  constructor(scope: Construct, id: string, props: { stage: Stage; table: ITable; logGroup: LogGroup }) {
    super(scope, id);
    const role = functionRole(this, 'LoaderRole', props.logGroup, 'Reference data loader');
    grantTable(
      role,
      props.table,
      ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'],
      false,
    );
    const loader = nodeFunction(this, 'Loader', {
      entry: 'events/deploy/load-reference-data.ts',
      stage: props.stage,
      role,
      logGroup: props.logGroup,
      description: 'Loads the reference data sets into the table on deploy',
      environment: { TABLE_NAME: props.table.tableName },
      memorySize: 1024,
      timeout: Duration.minutes(5),
    });
    new CustomResource(this, 'Load', {
      serviceToken: loader.functionArn,
      properties: { DataVersion: referenceDataVersion() },
    });
  }
}
