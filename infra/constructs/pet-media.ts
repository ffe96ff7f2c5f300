import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { type Bucket, EventType } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { PET_DERIVED_PREFIX, PET_PHOTOS_PREFIX } from '../../shared/domain/media/objects.ts';
import { queueWithDlq } from './events-pipeline.ts';
import { functionRole, grantTable, nodeFunction } from './lambda-defaults.ts';
import { MEDIA_ARCHITECTURE, sharpLayer } from './media-layers.ts';
import type { Monitoring } from './monitoring.ts';

export interface PetMediaProps {
  table: Table;
  bucket: Bucket;
  logGroup: LogGroup;
  monitoring: Monitoring;
}

/**
 * The async half of pet media: each kind's originals prefix notifies its own queue (with DLQ and alarm), whose
 * processor derives what is served. Roles reach exactly the prefixes each processor reads and writes.
 */
export class PetMedia extends Construct {
  readonly sharp: ILayerVersion;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: PetMediaProps,
  ) {
    super(scope, id);
    this.sharp = sharpLayer(this);
    const { queue } = queueWithDlq(this, 'PhotosQueue', props.monitoring, {
      visibilityTimeout: Duration.seconds(6 * 120),
      maxReceiveCount: 5,
      purpose: 'pet photos the processor failed on five times',
    });
    props.bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(queue), {
      prefix: PET_PHOTOS_PREFIX,
    });
    const role = this.processorRole('PhotoProcessorRole', 'Pet photo processor', PET_PHOTOS_PREFIX);
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['rekognition:DetectLabels'], resources: ['*'] }));
    Validations.of(role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: 'rekognition:DetectLabels supports no resource-level permissions.',
    });
    const processor = nodeFunction(this, 'PhotoProcessor', {
      entry: 'events/media/process-photo.ts',
      role,
      logGroup: props.logGroup,
      description: 'Pet photos: checks the bytes, writes the EXIF-free display copy and thumbnail, labels',
      environment: {
        TABLE_NAME: props.table.tableName,
        MEDIA_BUCKET: props.bucket.bucketName,
        LABELS_PROVIDER: 'rekognition',
      },
      memorySize: 2048,
      timeout: Duration.seconds(120),
      architecture: MEDIA_ARCHITECTURE,
      layers: [this.sharp],
      externalModules: ['sharp'],
    });
    processor.addEventSource(new SqsEventSource(queue, { batchSize: 1, reportBatchItemFailures: true }));
  }

  /**
   * Reads and removes originals under `originals`; writes, lists and removes derived objects; updates media items
   * (and removes a rejected photo's hash item).
   */
  processorRole(id: string, description: string, originals: string): Role {
    const { bucket, table } = this.props;
    const role = functionRole(this, id, this.props.logGroup, description);
    grantTable(role, table, ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], false);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:DeleteObject'],
        resources: [bucket.arnForObjects(`${originals}*`)],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:PutObject', 's3:DeleteObject'],
        resources: [bucket.arnForObjects(`${PET_DERIVED_PREFIX}*`)],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${PET_DERIVED_PREFIX}*`] } },
      }),
    );
    const bucketArn = `<${Stack.of(this).getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>`;
    for (const prefix of [originals, PET_DERIVED_PREFIX])
      Validations.of(role).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::${bucketArn}/${prefix}*]`,
        reason: 'Pet media keys are per account, pet and media item; the role is limited to its prefix.',
      });
    return role;
  }
}
