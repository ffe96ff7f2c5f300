import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Alias } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface MonitoringProps {
  /** Where alarms are e-mailed (`-c alarmEmail=ops@example.com`); subscribe other targets to the topic. */
  alarmEmail?: string | undefined;
}

/** The alarm topic every alarm of the stack notifies, and the API's 5xx alarm. */
export class Monitoring extends Construct {
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      enforceSSL: true,
      masterKey: Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
  }

  /** 5xx answers of the API: a handler crashed or a dependency failed. */
  alarmOnApiErrors(api: HttpApi): Alarm {
    return this.alarm(
      new Alarm(this, 'Api5xxAlarm', {
        alarmDescription: 'The API answered 5xx: a handler crashed or a dependency failed (see FunctionLogs).',
        metric: api.metricServerError({ period: Duration.minutes(1), statistic: 'Sum' }),
        threshold: 5,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** Any message in a dead-letter queue is an incident: one alarm per DLQ. */
  alarmOnDlq(dlq: Queue, holds: string): Alarm {
    return this.alarm(
      new Alarm(dlq, 'DepthAlarm', {
        alarmDescription: `Messages in ${dlq.node.path}: ${holds}. Inspect them, fix the cause, then redrive.`,
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  alarm(alarm: Alarm): Alarm {
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    alarm.addOkAction(new SnsAction(this.alarmTopic));
    return alarm;
  }
}
