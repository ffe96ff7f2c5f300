import { Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { DeployStrategy } from '../stage.ts';
import type { Monitoring } from './monitoring.ts';

/** The alias every caller (API integration, event source) invokes; a deploy moves it to the new version. */
export const RELEASE_ALIAS = 'live';

/** The canary lasts 5 minutes, so the alarms that judge it look at 1-minute windows. */
const WINDOW = Duration.minutes(1);
/** A window with fewer requests is not judged: one slow or failed request of three is noise. */
const MIN_REQUESTS = 20;
/** Failures (crashes, or 5xx answers of a route) of one function in a minute that stop its canary. */
export const RELEASE_FAILURES = 3;
/** The stage's 5xx share (%) and p99 latency (ms) that stop every shift under way. */
export const RELEASE_5XX_PERCENT = 5;
export const RELEASE_P99_MS = 10_000;

export interface ReleasesProps {
  strategy: DeployStrategy;
  monitoring: Monitoring;
}

/**
 * How new code reaches traffic. Every function is published as a version behind its `live` alias. With `canary`
 * (production) CodeDeploy shifts each alias 10 % for 5 minutes, then all, and rolls back by itself when the function's
 * failure alarm or the stage's 5xx-rate or p99-latency alarm goes off meanwhile; with `all-at-once` (staging)
 * CloudFormation moves the alias at once and nothing is watched.
 */
export class Releases extends Construct {
  private readonly groups: LambdaDeploymentGroup[] = [];
  private readonly canary?: { application: LambdaApplication; role: Role };

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ReleasesProps,
  ) {
    super(scope, id);
    if (props.strategy !== 'canary') return;
    // One application and one service role for the stage: the deployment groups in the nested stacks share them.
    const role = new Role(this, 'DeployRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: 'CodeDeploy shifting the live aliases of the stage',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "CodeDeploy's own policy for Lambda deployments: read and update aliases, read alarms; nothing else of the stage.",
    });
    this.canary = { application: new LambdaApplication(this, 'Application'), role };
  }

  /**
   * The function's `live` alias on its current version. Under `canary` also its deployment group, watched by an alarm
   * on the function's crashes plus `failures` (a route's 5xx answers), created next to the function.
   */
  release(fn: LambdaFunction, description: string, failures?: IMetric): Alias {
    const alias = new Alias(fn, 'Live', { aliasName: RELEASE_ALIAS, version: fn.currentVersion });
    if (!this.canary) return alias;
    const crashes = fn.metricErrors({ period: WINDOW, statistic: 'Sum' });
    const alarm = this.props.monitoring.alarm(
      new Alarm(fn, 'ReleaseFailuresAlarm', {
        alarmDescription: `${description}: ${RELEASE_FAILURES} or more failures in a minute (crashes${failures ? ' or 5xx answers' : ''}); rolls back a deploy under way.`,
        metric: failures
          ? new MathExpression({
              expression: 'FILL(crashes, 0) + FILL(failures, 0)',
              usingMetrics: { crashes, failures },
              period: WINDOW,
              label: 'crashes and 5xx answers',
            })
          : crashes,
        threshold: RELEASE_FAILURES,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
    this.groups.push(
      new LambdaDeploymentGroup(fn, 'Release', {
        application: this.canary.application,
        alias,
        deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
        role: this.canary.role,
        alarms: [alarm],
        autoRollback: { failedDeployment: true, deploymentInAlarm: true, stoppedDeployment: true },
      }),
    );
    return alias;
  }

  /** Every shift is also watched by the stage's 5xx rate and p99 latency (the API's metrics, 2 of 3 minutes). */
  watchStage(api: HttpApi): void {
    if (!this.canary) return;
    const requests = api.metricCount({ period: WINDOW, statistic: 'Sum' });
    const judged = (id: string, description: string, value: string, metrics: Record<string, IMetric>, above: number) =>
      this.props.monitoring.alarm(
        new Alarm(this, id, {
          alarmDescription: `${description}; rolls back every deploy under way.`,
          metric: new MathExpression({
            expression: `IF(requests >= ${MIN_REQUESTS}, ${value}, 0)`,
            usingMetrics: { requests, ...metrics },
            period: WINDOW,
            label: id,
          }),
          threshold: above,
          evaluationPeriods: 3,
          datapointsToAlarm: 2,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    const errorRate = judged(
      'Release5xxRateAlarm',
      `More than ${RELEASE_5XX_PERCENT} % of API requests answered 5xx in two of three minutes`,
      '100 * errors / requests',
      { errors: api.metricServerError({ period: WINDOW, statistic: 'Sum' }) },
      RELEASE_5XX_PERCENT,
    );
    const latency = judged(
      'ReleaseLatencyAlarm',
      `API p99 latency above ${RELEASE_P99_MS} ms in two of three minutes`,
      'latency',
      { latency: api.metricLatency({ period: WINDOW, statistic: 'p99' }) },
      RELEASE_P99_MS,
    );
    for (const group of this.groups) {
      group.addAlarm(errorRate);
      group.addAlarm(latency);
    }
  }
}
