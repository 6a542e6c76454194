// CloudWatch alarms of a stage, all sent (on alarm and on recovery) to one SNS topic: the API's 5xx
// and p99 latency, and for each function what its own release can break: a route's errors, throttles,
// and its method's 5xx and p99; the authorizer's throttles and failures. Those judge the function's
// rollout alone (`rolloutAlarms`), so that a release is rolled back for what it broke, not another's.
import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IAlarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Canary } from 'aws-cdk-lib/aws-synthetics';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { AccessLogMetrics } from '#lib/api/access-log-metrics.ts';
import { apiMetric, methodOfRoute } from '#lib/api/gateway-metrics.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { SECONDARY_INDEXES } from '#shared/store/table.ts';

const PERIOD = Duration.minutes(5);
/** p99 per minute, over the minutes of the stage's `p99LatencyWindow`. */
const LATENCY_PERIOD = Duration.minutes(1);

export type PetstoreAlarmsProps = {
  settings: StageSettings;
  /** The REST API's name, which its CloudWatch metrics carry as the ApiName dimension. */
  apiName: string;
  /**
   * The functions whose failed invocations are alarmed, by operationId. Not the authorizer: it fails
   * on purpose for every bad API key; its failures are counted from the access log instead.
   */
  routeFunctions: Record<string, IFunction>;
  authorizerFunction: IFunction;
  /** The stage's access-log metrics: the authorizer's failures, each route's 5xx without them. */
  accessLogMetrics: AccessLogMetrics;
  table: ITable;
};

type AlarmOptions = {
  metric: IMetric;
  threshold: number;
  description: string;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
  treatMissingData?: TreatMissingData;
};

export class PetstoreAlarms extends Construct {
  readonly topic: Topic;
  /** Every alarm made here, for the dashboard's status widget. */
  readonly all: Alarm[] = [];
  private readonly settings: StageSettings;
  /** The alarms of what each function's release can break, by function name. */
  private readonly functionAlarms = new Map<string, IAlarm[]>();

  constructor(scope: Construct, id: string, props: PetstoreAlarmsProps) {
    super(scope, id);
    const { settings, apiName, routeFunctions, authorizerFunction, accessLogMetrics, table } = props;
    this.settings = settings;
    this.topic = this.alarmTopic();
    const thresholds = settings.alarms;
    const sumOf = { period: PERIOD, statistic: 'Sum' };
    const p99Of = { period: LATENCY_PERIOD, statistic: 'p99' };
    const latencyWindow = thresholds.p99LatencyWindow;
    const { datapointsToAlarm, evaluationPeriods } = latencyWindow;
    const inWindow = `in ${datapointsToAlarm} of the last ${evaluationPeriods} minutes`;

    // The whole stage's health, for on-call: API Gateway's own 5xx included. No rollout watches
    // them, so that one function's incident does not roll back another function's release.
    this.alarm('Api5xx', {
      metric: apiMetric(apiName, '5XXError', sumOf),
      threshold: thresholds.serverErrorsPer5Minutes,
      description: 'The API answered 5xx (its own answers included).',
    });
    this.alarm('ApiP99Latency', {
      metric: apiMetric(apiName, 'Latency', p99Of),
      threshold: thresholds.p99LatencyMs,
      ...latencyWindow,
      description: `p99 latency of the API, ${inWindow}.`,
    });

    // The function's metrics, not its alias's: they count every version, the one a rollout moves
    // away from included, which is what a manual rollback moves back to. The method's 5xx leave out
    // the authorizer's failures, its latency is the integration's: neither is the route's doing.
    for (const [name, fn] of Object.entries(routeFunctions)) {
      const method = methodOfRoute(name);
      const route = `${method.httpMethod} ${method.resource}`;
      this.functionAlarms.set(name, [
        this.alarm(`${name}Errors`, {
          metric: fn.metricErrors(sumOf),
          threshold: thresholds.functionErrorsPer5Minutes,
          description: `${name} invocations failed (crash or timeout).`,
        }),
        this.throttlesAlarm(name, fn),
        this.alarm(`${name}5xx`, {
          metric: accessLogMetrics.routeServerErrors(method, PERIOD),
          threshold: thresholds.serverErrorsPer5Minutes,
          description: `${route} answered 5xx (but for the authorizer's failures).`,
        }),
        this.alarm(`${name}P99Latency`, {
          metric: apiMetric(apiName, 'IntegrationLatency', p99Of, method),
          threshold: thresholds.p99LatencyMs,
          ...latencyWindow,
          description: `p99 latency of ${route}'s function, ${inWindow}.`,
        }),
      ]);
    }
    this.functionAlarms.set('authorizer', [
      this.throttlesAlarm('authorizer', authorizerFunction),
      this.alarm('authorizerFailures', {
        metric: accessLogMetrics.authorizerFailures(PERIOD),
        threshold: thresholds.functionErrorsPer5Minutes,
        description: 'API Gateway could not use the authorizer (it failed, timed out or answered nonsense).',
      }),
    ]);
    this.alarm('DynamoDbThrottles', {
      metric: dynamoDbThrottles(table),
      threshold: 1,
      description: 'DynamoDB throttled reads or writes of the table or its indexes.',
    });
  }

  /**
   * The alarms that stop and roll back a rollout of this function: what its own release can break.
   * A bad key is no failure of the authorizer (it refuses on purpose); its hook catches one that
   * refuses every key.
   */
  rolloutAlarms(functionName: string): IAlarm[] {
    const alarms = this.functionAlarms.get(functionName);
    if (!alarms) throw new Error(`No alarms of ${functionName}`);
    return alarms;
  }

  /**
   * The probe failed two runs in a row, or reported nothing for two runs: one failed run may be the
   * network between, and a probe that stopped is as blind as one that fails.
   */
  watchProbe(canary: Canary): Alarm {
    return this.alarm('ProbeFailed', {
      metric: canary.metricFailed({ period: PERIOD, statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.BREACHING,
      description:
        'The probe failed two runs in a row, or stopped running (npm run probe, docs/deployment.md).',
    });
  }

  private throttlesAlarm(name: string, fn: IFunction): Alarm {
    return this.alarm(`${name}Throttles`, {
      metric: fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
      threshold: 1,
      description: `${name} invocations were throttled (account concurrency).`,
    });
  }

  /** Encrypted with a key of its own: CloudWatch cannot publish with the AWS-managed SNS key. */
  private alarmTopic(): Topic {
    const key = new Key(this, 'TopicKey', {
      description: `Pet store ${this.settings.name}: alarm notifications`,
      enableKeyRotation: true,
      removalPolicy: this.settings.removalPolicy,
    });
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    key.grant(cloudWatch, 'kms:Decrypt', 'kms:GenerateDataKey*');
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

  private alarm(id: string, options: AlarmOptions): Alarm {
    // No alarm name: CloudFormation's (<stack>-Alarms<id>…) is as readable, and a fixed one would
    // block any update that replaces the alarm.
    const alarm = new Alarm(this, id, {
      alarmDescription: `Pet store ${this.settings.name}: ${options.description}`,
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      datapointsToAlarm: options.datapointsToAlarm,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: options.treatMissingData ?? TreatMissingData.NOT_BREACHING,
    });
    this.all.push(alarm);
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    return alarm;
  }
}

/** Read and write throttle events of the table and of each index, missing points as 0. */
function dynamoDbThrottles(table: ITable): MathExpression {
  const throttleEvents = (metricName: string, dimensions: Record<string, string> = {}) =>
    new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: table.tableName, ...dimensions },
      statistic: 'Sum',
      period: PERIOD,
    });
  // An index whose writes are throttled throttles the table's writes that feed it.
  const usingMetrics: Record<string, Metric> = {
    tableReads: throttleEvents('ReadThrottleEvents'),
    tableWrites: throttleEvents('WriteThrottleEvents'),
  };
  for (const { name } of SECONDARY_INDEXES) {
    const index = { GlobalSecondaryIndexName: name };
    // A metric id is a lower-case letter, then letters, digits and _: an index name may hold - and .
    const id = `index_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
    usingMetrics[`${id}_reads`] = throttleEvents('ReadThrottleEvents', index);
    usingMetrics[`${id}_writes`] = throttleEvents('WriteThrottleEvents', index);
  }
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics,
    period: PERIOD,
    label: 'DynamoDB throttle events',
  });
}
