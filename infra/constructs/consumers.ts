import { Duration, Size, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, type ILayerVersion, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, type LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { EventType, type Bucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { consumers, deadLettersInto, type QueueId, queues, visibilityTimeoutSeconds } from '../../events/consumers.ts';
import type { ConsumerDef } from '../../shared/events/consumer-def.ts';
import { PERMANENT_FAILURE } from '../../shared/events/consumer.ts';
import { streamFilterPatterns } from '../../shared/events/stream-filters.ts';
import { constructName } from './api-routes.ts';
import { AccessGrants } from './grants.ts';
import { functionRole, nodeFunction } from './lambda-defaults.ts';
import { MEDIA_ARCHITECTURE } from './media-layers.ts';
import type { Monitoring } from './monitoring.ts';
import type { Releases } from './releases.ts';
import type { Stage } from '../stage.ts';

export interface ConsumersProps {
  stage: Stage;
  table: ITable;
  bucket: Bucket;
  mediaBaseUrl: string;
  webhookSecretsKey: IKey;
  /** The SES-verified sender of "your endpoint was disabled" mails, e.g. `Pet API <no-reply@pets.example>`. */
  mailFrom: string;
  /** For consumers that declare `native: 'sharp'`. */
  sharpLayer: ILayerVersion;
  /** For consumers that declare `native: 'ffmpeg'`. */
  ffmpegLayer: ILayerVersion;
  /** The Bedrock image model of consumers that declare `imageModel` (per stage; IAM is scoped to it). */
  portraitModelId: string;
  logGroup: LogGroup;
  monitoring: Monitoring;
  /** Publishes each consumer behind the alias its event source invokes. */
  releases: Releases;
}

/** A queue with its dead-letter queue, encrypted, TLS-only, alarmed when anything lands in the DLQ. */
function queueWithDlq(scope: Construct, id: string, monitoring: Monitoring, queue: QueueId) {
  const def = queues[queue];
  const dlq = new Queue(scope, `${id}Dlq`, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  monitoring.alarmOnDlq(dlq, def.dlqHolds);
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(queue)),
    deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
  });
}

/**
 * The asynchronous half, from the consumer table (events/consumers.ts) as ApiRoutes is from the route table: every
 * queue with its DLQ and alarm, and per consumer one function with a role derived from its declared access and its
 * event source (the table stream, filtered to the event catalogue's source items, or its queue).
 */
export class Consumers extends Construct {
  readonly queues: Record<QueueId, Queue>;
  private readonly grants: AccessGrants;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ConsumersProps,
  ) {
    super(scope, id);
    this.queues = Object.fromEntries(
      (Object.keys(queues) as QueueId[]).map((queue) => [
        queue,
        queueWithDlq(this, `${constructName(queue)}Queue`, props.monitoring, queue),
      ]),
    ) as Record<QueueId, Queue>;
    this.grants = new AccessGrants({
      table: props.table,
      mediaBucket: props.bucket,
      mediaBaseUrl: props.mediaBaseUrl,
      webhookSecretsKey: props.webhookSecretsKey,
      queues: this.queues,
      portraitModelId: props.portraitModelId,
      mailFrom: props.mailFrom,
    });
    for (const [queue, def] of Object.entries(queues) as [QueueId, (typeof queues)[QueueId]][])
      if ('bucketPrefix' in def)
        props.bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(this.queues[queue]), {
          prefix: def.bucketPrefix,
        });
    if (Object.values(queues).some((def) => 'bucketPrefix' in def))
      // The notification wiring is a stack-level singleton of aws-cdk-lib (a custom resource with its own role).
      Validations.of(Stack.of(this)).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "aws-cdk-lib's BucketNotificationsHandler (and BucketDeployment) custom resources use the basic execution managed policy.",
      });

    for (const consumer of consumers) this.consumer(consumer);
    this.alarmOnPermanentFailures();
  }

  private consumer(consumer: ConsumerDef<QueueId>): void {
    const name = constructName(consumer.id);
    const role = functionRole(this, `${name}Role`, this.props.logGroup, `Consumer ${consumer.id}`);
    const fn = nodeFunction(this, name, {
      entry: `events/${consumer.entry}.ts`,
      stage: this.props.stage,
      role,
      logGroup: this.props.logGroup,
      description: consumer.description,
      environment: this.grant(role, consumer),
      timeout: Duration.seconds(consumer.timeoutSeconds),
      ...(consumer.memoryMb && { memorySize: consumer.memoryMb }),
      ...(consumer.native === 'sharp' && {
        architecture: MEDIA_ARCHITECTURE,
        layers: [this.props.sharpLayer],
        externalModules: ['sharp'],
      }),
      ...(consumer.native === 'ffmpeg' && {
        architecture: MEDIA_ARCHITECTURE,
        layers: [this.props.ffmpegLayer],
        externalModules: ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'],
      }),
      ...(consumer.tmpMb && { ephemeralStorageSize: Size.mebibytes(consumer.tmpMb) }),
    });
    const live = this.props.releases.release(fn, consumer.description);
    if ('queue' in consumer.source) {
      live.addEventSource(
        new SqsEventSource(this.queues[consumer.source.queue], {
          batchSize: consumer.batchSize,
          reportBatchItemFailures: true,
        }),
      );
      return;
    }
    const streamFailures = new Queue(this, `${name}StreamFailureDlq`, {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.props.monitoring.alarmOnDlq(streamFailures, `stream records ${consumer.id} could not handle`);
    Validations.of(streamFailures).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason: 'This queue is itself the on-failure destination (DLQ) of the stream event source.',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: "dynamodb:ListStreams has no resource-level permissions; Lambda's stream event source needs it.",
    });
    // The consumer parks records it can never handle here itself, so one poison record cannot stall the shard.
    fn.addEnvironment('STREAM_DLQ_URL', streamFailures.queueUrl);
    streamFailures.grantSendMessages(role);
    live.addEventSource(
      new DynamoEventSource(this.props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: consumer.batchSize,
        bisectBatchOnError: true,
        retryAttempts: consumer.source.retryAttempts,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(streamFailures),
        // Only records the consumer handles wake it (and are billed): by default items that can become events.
        filters: streamFilterPatterns(consumer.source).map((pattern) => FilterCriteria.filter({ ...pattern })),
      }),
    );
  }

  /** Grants the declared access and returns the environment that goes with it. */
  private grant(role: Role, consumer: ConsumerDef<QueueId>): Record<string, string> {
    this.grants.grant(role, consumer.access);
    const environment = this.grants.environment(consumer.access);
    const deadLetters = deadLettersInto(consumer);
    if (deadLetters) {
      // It parks a message whose sends SQS refused for good in its own queue's DLQ itself (shared/events/consumer.ts).
      const dlq = this.queues[deadLetters].deadLetterQueue!.queue;
      dlq.grantSendMessages(role);
      environment.DEAD_LETTER_QUEUE_URL = dlq.queueUrl;
    }
    if (consumer.native === 'ffmpeg') {
      environment.FFMPEG_PATH = '/opt/bin/ffmpeg';
      environment.FFPROBE_PATH = '/opt/bin/ffprobe';
    }
    return environment;
  }

  /** Messages the consumer wrapper dropped as permanently failed (shared/events/consumer.ts) are incidents too. */
  private alarmOnPermanentFailures(): void {
    const metric = new MetricFilter(this, 'PermanentFailures', {
      logGroup: this.props.logGroup,
      filterPattern: FilterPattern.allTerms(PERMANENT_FAILURE),
      metricNamespace: 'PetApi',
      metricName: `${Stack.of(this).stackName}-ConsumerPermanentFailures`,
      metricValue: '1',
    }).metric({ period: Duration.minutes(5), statistic: 'Sum' });
    this.props.monitoring.alarm(
      new Alarm(this, 'PermanentFailuresAlarm', {
        alarmDescription:
          'A consumer dropped a message that can never succeed (malformed, or refused for good): see FunctionLogs for PermanentFailure.',
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}
