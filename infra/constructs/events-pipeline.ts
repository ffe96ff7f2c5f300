import { Duration, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE_ITEM_TYPES } from '../../shared/events/catalogue.ts';
import { functionRole, nodeFunction } from './lambda-defaults.ts';
import type { Monitoring } from './monitoring.ts';

export interface EventsPipelineProps {
  table: Table;
  logGroup: LogGroup;
  monitoring: Monitoring;
  mediaBaseUrl: string;
}

/** A queue with its dead-letter queue, encrypted, TLS-only, alarmed when anything lands in the DLQ. */
export function queueWithDlq(
  scope: Construct,
  id: string,
  monitoring: Monitoring,
  options: { visibilityTimeout: Duration; maxReceiveCount: number; purpose: string },
) {
  const dlq = new Queue(scope, `${id}Dlq`, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: options.visibilityTimeout,
    deadLetterQueue: { queue: dlq, maxReceiveCount: options.maxReceiveCount },
  });
  monitoring.alarmOnDlq(dlq, options.purpose);
  return { queue, dlq };
}

/**
 * DynamoDB stream → router function → events queue. Events exist exactly for committed writes; the stream retries
 * a failed batch from the failed record (bisecting), and records that still fail go to a DLQ with an alarm.
 */
export class EventsPipeline extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string, props: EventsPipelineProps) {
    super(scope, id);
    this.queue = queueWithDlq(this, 'EventsQueue', props.monitoring, {
      visibilityTimeout: Duration.seconds(60),
      maxReceiveCount: 5,
      purpose: 'domain events that the webhook dispatcher could not handle',
    }).queue;
    const streamFailures = new Queue(this, 'StreamFailureDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    props.monitoring.alarmOnDlq(streamFailures, 'stream records the event router could not turn into events');
    Validations.of(streamFailures).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason: 'This queue is itself the on-failure destination (DLQ) of the stream event source.',
    });

    const role = functionRole(this, 'RouterRole', props.logGroup, 'Event router: table stream -> events queue');
    const router = nodeFunction(this, 'Router', {
      entry: 'events/consumers/route-events.ts',
      role,
      logGroup: props.logGroup,
      description: 'Turns committed writes (table stream) into domain events',
      environment: {
        TABLE_NAME: props.table.tableName,
        EVENTS_QUEUE_URL: this.queue.queueUrl,
        MEDIA_BASE_URL: props.mediaBaseUrl,
      },
      timeout: Duration.seconds(30),
    });
    this.queue.grantSendMessages(role);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: "dynamodb:ListStreams has no resource-level permissions; Lambda's stream event source needs it.",
    });
    router.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        retryAttempts: 10,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(streamFailures),
        // Only items that can become events wake the router (and are billed).
        filters: EVENT_SOURCE_ITEM_TYPES.map((type) =>
          FilterCriteria.filter({ dynamodb: { NewImage: { type: { S: FilterRule.isEqual(type) } } } }),
        ),
      }),
    );
  }
}
