import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Alias } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PROVIDER_FAULTS } from '../../shared/domain/analysis/ask.ts';
import { METRIC, type MetricName, METRICS_NAMESPACE } from '../../shared/observability.ts';

export interface MonitoringProps {
  /** Where alarms are e-mailed (`-c alarmEmail=ops@example.com`); subscribe other targets to the topic. */
  alarmEmail?: string | undefined;
  /** The `service` dimension of the stage's metrics (the functions' POWERTOOLS_SERVICE_NAME: the stack name). */
  service: string;
}

/** At least this many requests (or attempts) in a window before a ratio alarm judges it: one failure of two is noise. */
const MIN_SAMPLE = 20;

/**
 * The alarm topic every alarm of the stage notifies, the alarms on what the code measures (EMF metrics of
 * shared/observability.ts) and on the API, and the stage's dashboard.
 */
export class Monitoring extends Construct {
  readonly alarmTopic: Topic;
  private readonly alarms: Alarm[] = [];
  private readonly dlqDepths: IMetric[] = [];

  constructor(
    scope: Construct,
    id: string,
    private readonly props: MonitoringProps,
  ) {
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

  /** A metric of the code (EMF), summed over `period`, for this stage. */
  metric(name: MetricName, dimensions: Record<string, string> = {}, period = Duration.minutes(5), statistic = 'Sum') {
    return new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: name,
      dimensionsMap: { service: this.props.service, ...dimensions },
      period,
      statistic,
    });
  }

  /**
   * The alarms on what the code measures and on the API's error rate: more than 5 % of requests answered 5xx, more than
   * half of the webhook attempts failing (receivers fail one by one; all of them at once is us), and the vision
   * provider failing analyses (errors, timeouts, invalid answers; throttling is answered 503 and expected).
   */
  alarmOnServiceHealth(api: HttpApi): void {
    const period = Duration.minutes(5);
    const ratio = (id: string, description: string, part: IMetric, whole: IMetric, percent: number) =>
      this.alarm(
        new Alarm(this, id, {
          alarmDescription: description,
          metric: new MathExpression({
            expression: `IF(whole >= ${MIN_SAMPLE}, 100 * part / whole, 0)`,
            usingMetrics: { part, whole },
            period,
            label: `${id} (%)`,
          }),
          threshold: percent,
          evaluationPeriods: 3,
          datapointsToAlarm: 2,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    ratio(
      'Api5xxRateAlarm',
      'More than 5 % of API requests answered 5xx in two of three 5-minute windows (see FunctionLogs).',
      api.metricServerError({ period, statistic: 'Sum' }),
      api.metricCount({ period, statistic: 'Sum' }),
      5,
    );
    ratio(
      'WebhookFailureRatioAlarm',
      'More than half of the webhook delivery attempts failed in two of three 5-minute windows: egress, signing or secrets.',
      this.metric(METRIC.webhookFailures),
      this.metric(METRIC.webhookAttempts),
      50,
    );
    const faults = Object.fromEntries(
      PROVIDER_FAULTS.map((outcome, i) => [`f${i}`, this.metric(METRIC.analysisCalls, { outcome })]),
    );
    this.alarm(
      new Alarm(this, 'AnalysisProviderErrorsAlarm', {
        alarmDescription: `The vision model failed 5 or more analyses in 5 minutes (${PROVIDER_FAULTS.join(', ')}).`,
        metric: new MathExpression({
          expression: `SUM([${Object.keys(faults).join(',')}])`,
          usingMetrics: faults,
          period,
          label: 'analysis provider faults',
        }),
        threshold: 5,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** One dashboard per stage: traffic and errors by route, latency, webhooks, uploads, analysis, DLQs, alarms. */
  addDashboard(api: HttpApi): Dashboard {
    const service = this.props.service;
    const search = (metric: MetricName, dimensions: string, statistic: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},${dimensions}} MetricName="${metric}" service="${service}"', '${statistic}', 300)`,
        label,
        period: Duration.minutes(5),
      });
    const graph = (title: string, left: IMetric[], width = 12) => new GraphWidget({ title, left, width, height: 6 });
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${service}-overview` });
    dashboard.addWidgets(
      graph('API requests, 4xx, 5xx', [
        api.metricCount({ statistic: 'Sum' }),
        api.metricClientError({ statistic: 'Sum' }),
        api.metricServerError({ statistic: 'Sum' }),
      ]),
      graph('API latency p50 / p99 (ms)', [
        api.metricLatency({ statistic: 'p50' }),
        api.metricLatency({ statistic: 'p99' }),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'Requests by route and status class',
        [search(METRIC.requests, 'service,route,status_class', 'Sum', '')],
        24,
      ),
    );
    dashboard.addWidgets(
      graph(
        'Function duration p99 by route (ms)',
        [
          new MathExpression({
            expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="Duration" ${service}', 'p99', 300)`,
            label: '',
            period: Duration.minutes(5),
          }),
        ],
        24,
      ),
    );
    dashboard.addWidgets(
      graph(
        'Webhook attempts, successes, failures, disables',
        [METRIC.webhookAttempts, METRIC.webhookSuccesses, METRIC.webhookFailures, METRIC.webhookDisables].map((m) =>
          this.metric(m),
        ),
      ),
      graph('Uploads by kind and outcome', [search(METRIC.uploads, 'service,kind,outcome', 'Sum', '')]),
    );
    dashboard.addWidgets(
      graph('Analysis calls by outcome', [search(METRIC.analysisCalls, 'service,outcome', 'Sum', '')]),
      graph('Analysis provider latency p50 / p99 (ms)', [
        this.metric(METRIC.analysisProviderLatency, {}, Duration.minutes(5), 'p50'),
        this.metric(METRIC.analysisProviderLatency, {}, Duration.minutes(5), 'p99'),
      ]),
    );
    dashboard.addWidgets(
      graph('Messages in dead-letter queues', this.dlqDepths),
      new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 12, height: 6 }),
    );
    return dashboard;
  }

  /** Any message in a dead-letter queue is an incident: one alarm per DLQ. */
  alarmOnDlq(dlq: Queue, holds: string): Alarm {
    this.dlqDepths.push(
      dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    );
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
    // The dashboard lists the stage stack's own alarms (those of nested route stacks are on their functions' graphs).
    if (!Stack.of(alarm).nested) this.alarms.push(alarm);
    return alarm;
  }
}
