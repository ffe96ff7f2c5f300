import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Stage } from '../stage.ts';
import { queueWithDlq } from './events-pipeline.ts';
import { functionRole, grantTable, nodeFunction } from './lambda-defaults.ts';
import type { Monitoring } from './monitoring.ts';

export interface WebhooksProps {
  stage: Stage;
  table: Table;
  eventsQueue: Queue;
  logGroup: LogGroup;
  monitoring: Monitoring;
  mediaBaseUrl: string;
  /** The SES-verified sender of "your endpoint was disabled" mails, e.g. `Pet API <no-reply@pets.example>`. */
  mailFrom: string;
}

const WORKER_TIMEOUT = Duration.seconds(30);

/**
 * Webhook delivery: events queue → dispatcher (one job per subscribed endpoint) → deliveries queue → deliverer
 * (signs with the current secret, 5 s reply limit, retries as new delayed messages, disables after 10 failures).
 */
export class Webhooks extends Construct {
  readonly secretsKey: Key;
  readonly deliveriesQueue: Queue;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    this.secretsKey = new Key(this, 'SigningSecretsKey', {
      description: 'Encrypts webhook signing secrets',
      enableKeyRotation: true,
      removalPolicy: props.stage === 'production' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.deliveriesQueue = queueWithDlq(this, 'DeliveriesQueue', props.monitoring, {
      visibilityTimeout: Duration.seconds(WORKER_TIMEOUT.toSeconds() * 6),
      maxReceiveCount: 5,
      purpose:
        'delivery jobs whose worker crashed five times (failed attempts are retried by the worker itself, not here)',
    }).queue;
    const common = {
      TABLE_NAME: props.table.tableName,
      WEBHOOK_DELIVERIES_QUEUE_URL: this.deliveriesQueue.queueUrl,
      MEDIA_BASE_URL: props.mediaBaseUrl,
    };

    const dispatchRole = functionRole(this, 'DispatcherRole', props.logGroup, 'Webhook dispatcher');
    grantTable(dispatchRole, props.table, ['dynamodb:Query', 'dynamodb:PutItem'], false);
    this.deliveriesQueue.grantSendMessages(dispatchRole);
    const dispatcher = nodeFunction(this, 'Dispatcher', {
      entry: 'events/consumers/dispatch-webhooks.ts',
      role: dispatchRole,
      logGroup: props.logGroup,
      description: 'Fans each event out to the subscribed webhook endpoints',
      environment: common,
      timeout: WORKER_TIMEOUT,
    });
    dispatcher.addEventSource(new SqsEventSource(props.eventsQueue, { batchSize: 10, reportBatchItemFailures: true }));

    const deliverRole = functionRole(this, 'DelivererRole', props.logGroup, 'Webhook deliverer');
    grantTable(deliverRole, props.table, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], false);
    this.deliveriesQueue.grantSendMessages(deliverRole);
    this.secretsKey.grantDecrypt(deliverRole);
    const stack = Stack.of(this);
    const senderDomain = /@([^>\s]+)/.exec(props.mailFrom)?.[1] ?? 'example.com';
    deliverRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: senderDomain })],
      }),
    );
    const deliverer = nodeFunction(this, 'Deliverer', {
      entry: 'events/consumers/deliver-webhook.ts',
      role: deliverRole,
      logGroup: props.logGroup,
      description: 'Signs and POSTs webhook deliveries, with retries and the disable rule',
      environment: { ...common, WEBHOOK_KMS_KEY_ID: this.secretsKey.keyArn, OWNER_MAIL_FROM: props.mailFrom },
      timeout: WORKER_TIMEOUT,
    });
    deliverer.addEventSource(
      new SqsEventSource(this.deliveriesQueue, { batchSize: 10, reportBatchItemFailures: true }),
    );
  }
}
