// A stage's alarms and its one page. On-call is paged on symptoms (the SLOs' burn rates, the probe)
// and on causes no SLO judges (throttles, an authorizer API Gateway cannot use), all through one
// composite alarm, `Page`, which notifies when the first fires and when the last recovers: one
// incident, one page. Each release's threshold alarms (`rolloutAlarms`) roll it back, paging no one.
import { Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmRule,
  ComparisonOperator,
  CompositeAlarm,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { CfnCompositeAlarm, IAlarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ArnPrincipal, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { FUNCTION_NAMES } from '#functions/manifests.ts';
import type { FunctionName } from '#functions/manifests.ts';
import { KEY_MANAGEMENT, executionRoleArn } from '#lib/deploy-policies.ts';
import { PROBE_WINDOW } from '#lib/monitoring/stage-metrics.ts';
import type { StageMetrics } from '#lib/monitoring/stage-metrics.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { ROUTES } from '#shared/http/routes.ts';

export type StageAlarmsProps = {
  settings: StageSettings;
  metrics: StageMetrics;
  /** The SLOs' burn-rate alarms: they page. */
  burnRateAlarms: IAlarm[];
};

type AlarmOptions = {
  metric: IMetric;
  threshold: number;
  description: string;
  comparisonOperator?: ComparisonOperator;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
  treatMissingData?: TreatMissingData;
};

export class StageAlarms extends Construct {
  /** Where the page notifies, on alarm and on recovery. */
  readonly topic: Topic;
  /** The one alarm that notifies: any alarm that pages is in ALARM. */
  readonly page: CompositeAlarm;
  /** Every alarm on-call reads (the SLOs' windows aside), for the dashboard's status widget. */
  readonly all: IAlarm[] = [];
  private readonly settings: StageSettings;
  /** The alarms of what each function's release can break, by function name. */
  private readonly rollout = new Map<FunctionName, IAlarm[]>();

  constructor(scope: Construct, id: string, { settings, metrics, burnRateAlarms }: StageAlarmsProps) {
    super(scope, id);
    this.settings = settings;
    this.topic = this.alarmTopic();
    const thresholds = settings.alarms;
    const latencyWindow = thresholds.p99LatencyWindow;
    const inWindow = `in ${latencyWindow.datapointsToAlarm} of the last ${latencyWindow.evaluationPeriods} minutes`;

    // Causes no SLO judges, which page: a throttled invocation fails its request whatever the route.
    const throttles = Object.fromEntries(
      FUNCTION_NAMES.map((name) => [
        name,
        this.alarm(`${name}Throttles`, {
          metric: metrics.function(name).throttles,
          threshold: 1,
          description: `${name} invocations were throttled (account concurrency).`,
        }),
      ]),
    ) as Record<FunctionName, Alarm>;
    const authorizerFailures = this.alarm('authorizerFailures', {
      metric: metrics.authorizer.failures,
      threshold: thresholds.functionErrorsPer5Minutes,
      description: 'API Gateway could not use the authorizer (it failed, timed out or answered nonsense).',
    });
    const dynamoDbThrottles = this.alarm('DynamoDbThrottles', {
      metric: metrics.table.throttles,
      threshold: 1,
      description: 'DynamoDB throttled reads or writes of the table or its indexes.',
    });
    // One failed run may be the network between; a probe that stopped is as blind as one that fails.
    const probeFailed = this.alarm('ProbeFailed', {
      metric: metrics.probePassed,
      threshold: 100,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
      description: `No probe run passed in ${PROBE_WINDOW.toHumanString()}: two failed, or it stopped (docs/deployment.md#the-probe).`,
    });

    // What each function's own release can break: the function's metrics, not its alias's, so that
    // they count every version, the one a rollout moves away from included. A route's method's 5xx
    // leave out the authorizer's failures, its latency is the integration's: neither is the route's.
    for (const { operationId } of ROUTES) {
      const route = metrics.route(operationId);
      this.rollout.set(operationId, [
        this.alarm(`${operationId}Errors`, {
          metric: metrics.function(operationId).errors,
          threshold: thresholds.functionErrorsPer5Minutes,
          description: `${operationId} invocations failed (crash or timeout).`,
        }),
        throttles[operationId],
        this.alarm(`${operationId}5xx`, {
          metric: route.ownServerErrors,
          threshold: thresholds.serverErrorsPer5Minutes,
          description: `${route.label} answered 5xx (but for the authorizer's failures).`,
        }),
        this.alarm(`${operationId}P99Latency`, {
          metric: route.integrationLatency('p99'),
          threshold: thresholds.p99LatencyMs,
          ...latencyWindow,
          description: `p99 latency of ${route.label}'s function, ${inWindow}.`,
        }),
      ]);
    }
    // A bad key is no failure of the authorizer (it refuses on purpose); its hook catches one that
    // refuses every key.
    this.rollout.set('authorizer', [throttles.authorizer, authorizerFailures]);

    this.page = new CompositeAlarm(this, 'Page', {
      alarmDescription: `Pet store ${settings.name}: page on-call. An SLO burns its budget, the probe fails, or invocations are throttled or unauthorized: the dashboard's Alarms widget says which (docs/deployment.md#when-the-page-fires).`,
      alarmRule: AlarmRule.anyOf(
        ...burnRateAlarms,
        probeFailed,
        ...Object.values(throttles),
        authorizerFailures,
        dynamoDbThrottles,
      ),
    });
    // CDK would name it from its path; as the metric alarms, CloudFormation names it instead.
    (this.page.node.defaultChild as CfnCompositeAlarm).addPropertyDeletionOverride('AlarmName');
    const action = new SnsAction(this.topic);
    this.page.addAlarmAction(action);
    this.page.addOkAction(action);
    this.all.push(...burnRateAlarms, this.page);
  }

  /** The alarms that stop and roll back a rollout of this function: what its own release can break. */
  rolloutAlarms(functionName: FunctionName): IAlarm[] {
    const alarms = this.rollout.get(functionName);
    if (!alarms) throw new Error(`No alarms of ${functionName}`);
    return alarms;
  }

  /** Encrypted with a key of its own: CloudWatch cannot publish with the AWS-managed SNS key. */
  private alarmTopic(): Topic {
    // Not TopicKey, which no policy let the project toolkit's execution role manage: a new key, made
    // with a policy that does. Production retains the old one (docs/deployment.md, Tear a stage down).
    const key = new Key(this, 'NotificationKey', {
      description: `Pet store ${this.settings.name}: alarm notifications`,
      enableKeyRotation: true,
      removalPolicy: this.settings.removalPolicy,
    });
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    key.grant(cloudWatch, 'kms:Decrypt', 'kms:GenerateDataKey*');
    // The execution policy reaches no key: each key's own policy lets CloudFormation manage it.
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ArnPrincipal(executionRoleArn(this))],
        actions: KEY_MANAGEMENT,
        resources: ['*'],
      }),
    );
    const topic = new Topic(this, 'Topic', {
      displayName: `Pet store ${this.settings.name} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    return topic;
  }

  /** A metric alarm with no action of its own: the page, or a rollout, acts on it. */
  private alarm(id: string, options: AlarmOptions): Alarm {
    // No alarm name: CloudFormation's (<stack>-Alarms<id>…) is as readable, and a fixed one would
    // block any update that replaces the alarm.
    const alarm = new Alarm(this, id, {
      alarmDescription: `Pet store ${this.settings.name}: ${options.description}`,
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      datapointsToAlarm: options.datapointsToAlarm,
      comparisonOperator: options.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: options.treatMissingData ?? TreatMissingData.NOT_BREACHING,
    });
    this.all.push(alarm);
    return alarm;
  }
}
