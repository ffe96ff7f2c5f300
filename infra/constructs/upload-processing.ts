import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { EventType, type Bucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { queueWithDlq } from './events-pipeline.ts';
import { functionRole, grantTable, nodeFunction } from './lambda-defaults.ts';
import type { Monitoring } from './monitoring.ts';

export interface UploadProcessingProps {
  table: Table;
  bucket: Bucket;
  logGroup: LogGroup;
  monitoring: Monitoring;
}

/** Object stored under uploads/ → S3 notification → uploads queue → processor (validate, approve or reject, label). */
export class UploadProcessing extends Construct {
  constructor(scope: Construct, id: string, props: UploadProcessingProps) {
    super(scope, id);
    const { queue } = queueWithDlq(this, 'UploadsQueue', props.monitoring, {
      visibilityTimeout: Duration.seconds(360),
      maxReceiveCount: 5,
      purpose: 'upload notifications the processor failed on five times',
    });
    props.bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(queue), { prefix: 'uploads/' });

    const role = functionRole(this, 'ProcessorRole', props.logGroup, 'Upload processor');
    grantTable(role, props.table, ['dynamodb:GetItem', 'dynamodb:UpdateItem'], false);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:DeleteObject'],
        resources: [props.bucket.arnForObjects('uploads/*')],
      }),
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['rekognition:DetectLabels'], resources: ['*'] }));
    const processor = nodeFunction(this, 'Processor', {
      entry: 'events/consumers/process-upload.ts',
      role,
      logGroup: props.logGroup,
      description: 'Validates, approves or rejects, and labels uploaded photos',
      environment: {
        TABLE_NAME: props.table.tableName,
        MEDIA_BUCKET: props.bucket.bucketName,
        LABELS_PROVIDER: 'rekognition',
      },
      memorySize: 1024,
      timeout: Duration.seconds(60),
    });
    processor.addEventSource(new SqsEventSource(queue, { batchSize: 5, reportBatchItemFailures: true }));

    // The notification wiring is a stack-level singleton of aws-cdk-lib (a custom resource with its own role).
    Validations.of(Stack.of(this)).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "aws-cdk-lib's BucketNotificationsHandler (and BucketDeployment) custom resources use the basic execution managed policy.",
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: 'rekognition:DetectLabels supports no resource-level permissions.',
    });
    Validations.of(role).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(props.bucket.node.defaultChild as never)}.Arn>/uploads/*]`,
      reason: 'The processor reads (and removes orphaned) objects under uploads/ only; object keys are per upload.',
    });
  }
}
