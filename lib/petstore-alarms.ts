// CloudWatch alarms of a stage, all sent (on alarm and on recovery) to one SNS topic: API 5xx and
// p99 latency, errors of the route functions, throttles of every function, DynamoDB throttles.
// The first three also judge each rollout (`rolloutAlarms`), so CloudWatch evaluates them every
// minute: each can fire within a canary's 5 minutes.
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
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';
import { STAGE_NAME } from '#shared/http/routes.ts';
import { STATUS_INDEX } from '#shared/store/table.ts';

const PERIOD = Duration.minutes(5);
/** p99 per minute, 3 minutes of the last 5: quick enough for a canary, deaf to one slow minute. */
const LATENCY_PERIOD = Duration.minutes(1);
const LATENCY_MINUTES = { evaluationPeriods: 5, datapointsToAlarm: 3 };

export type PetstoreAlarmsProps = {
  settings: StageSettings;
  /** The REST API's name, which its CloudWatch metrics carry as the ApiName dimension. */
  apiName: string;
  /**
   * The functions whose failed invocations are alarmed, by name. Not the authorizer: it fails on
   * purpose for every bad API key, and a failure to reach its table is a 5xx in the API alarm.
   */
  routeFunctions: Record<string, IFunction>;
  authorizerFunction: IFunction;
  table: ITable;
};

type AlarmOptions = {
  metric: IMetric;
  threshold: number;
  description: string;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
};

export class PetstoreAlarms extends Construct {
  readonly topic: Topic;
  private readonly settings: StageSettings;
  /** What judges a rollout of every function: the API's 5xx and p99 latency. */
  private readonly apiAlarms: IAlarm[];
  /** The failed-invocation alarm of each route function, by name. */
  private readonly errorAlarms = new Map<string, IAlarm>();

  constructor(scope: Construct, id: string, props: PetstoreAlarmsProps) {
    super(scope, id);
    const { settings, apiName, routeFunctions, authorizerFunction, table } = props;
    this.settings = settings;
    this.topic = this.alarmTopic();
    const thresholds = settings.alarms;

    this.apiAlarms = [
      this.alarm('Api5xx', {
        metric: apiMetric(apiName, '5XXError', { period: PERIOD, statistic: 'Sum' }),
        threshold: thresholds.serverErrorsPer5Minutes,
        description: 'The API answered 5xx (its own answers included).',
      }),
      this.alarm('ApiP99Latency', {
        metric: apiMetric(apiName, 'Latency', { period: LATENCY_PERIOD, statistic: 'p99' }),
        threshold: thresholds.p99LatencyMs,
        ...LATENCY_MINUTES,
        description: 'p99 latency of the API, in 3 of the last 5 minutes.',
      }),
    ];
    // The function's metrics, not its alias's: they count every version, the one a rollout moves
    // away from included, which is what a manual rollback moves back to.
    for (const [name, fn] of Object.entries(routeFunctions)) {
      const errors = this.alarm(`${name}Errors`, {
        metric: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        threshold: thresholds.functionErrorsPer5Minutes,
        description: `${name} invocations failed (crash or timeout).`,
      });
      this.errorAlarms.set(name, errors);
    }
    for (const [name, fn] of Object.entries({ ...routeFunctions, authorizer: authorizerFunction })) {
      this.alarm(`${name}Throttles`, {
        metric: fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        description: `${name} invocations were throttled (account concurrency).`,
      });
    }
    this.alarm('DynamoDbThrottles', {
      metric: dynamoDbThrottles(table),
      threshold: 1,
      description: 'DynamoDB throttled reads or writes of the table or its index.',
    });
  }

  /**
   * The alarms that stop and roll back a rollout of this function: the API's 5xx and latency, and
   * the function's own errors. The authorizer has none of its own (it fails on purpose for bad
   * keys); a broken one shows as 5xx.
   */
  rolloutAlarms(functionName: string): IAlarm[] {
    const errors = this.errorAlarms.get(functionName);
    return errors ? [...this.apiAlarms, errors] : this.apiAlarms;
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
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    return alarm;
  }
}

/**
 * A metric of stage v1 named by its literal name, not by a reference to the stage resource. The
 * rollout's deployment groups name the API alarms, each function alias's UpdatePolicy names its
 * group, and the stage is deployed from methods that invoke those aliases: a reference would close
 * that circle, and CloudFormation rejects a template with a circular dependency.
 */
const apiMetric = (apiName: string, metricName: string, options: { period: Duration; statistic: string }) =>
  new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: { ApiName: apiName, Stage: STAGE_NAME },
    ...options,
  });

/** Read and write throttle events of the table plus reads of the index, missing points as 0. */
function dynamoDbThrottles(table: ITable): MathExpression {
  const throttleEvents = (metricName: string, dimensions: Record<string, string> = {}) =>
    new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: table.tableName, ...dimensions },
      statistic: 'Sum',
      period: PERIOD,
    });
  return new MathExpression({
    expression: 'FILL(tableReads, 0) + FILL(tableWrites, 0) + FILL(indexReads, 0)',
    usingMetrics: {
      tableReads: throttleEvents('ReadThrottleEvents'),
      tableWrites: throttleEvents('WriteThrottleEvents'),
      indexReads: throttleEvents('ReadThrottleEvents', { GlobalSecondaryIndexName: STATUS_INDEX.name }),
    },
    period: PERIOD,
    label: 'DynamoDB throttle events',
  });
}
