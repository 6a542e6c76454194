// The service level objectives of each route (lib/stage-settings.ts `slos`) as the SRE workbook's
// multi-window, multi-burn-rate alarms: a pair of windows fires when both burn the error budget too
// fast, the long one so that a blip does not page, the short one so that the page stops soon after the
// burn does (they page through ./stage-alarms.ts). Also each objective's 28-day budget left.
import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmRule,
  ComparisonOperator,
  CompositeAlarm,
  MathExpression,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { CfnCompositeAlarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { routeLabel } from '#lib/api/gateway-metrics.ts';
import type { StageMetrics } from '#lib/monitoring/stage-metrics.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';

/** The window the objectives hold over (lib/stage-settings.ts): the budget is what they let fail in it. */
export const BUDGET_PERIOD = Duration.days(28);

/**
 * The SRE workbook's two paging pairs ("Alerting on SLOs", multiwindow, multi-burn-rate alerts), a burn
 * rate being how many times faster than the budget lasts its window spends it. Its rates are for a
 * 30-day budget (2 % of it in an hour, 5 % in six); over 28 days the same rates spend a little more.
 * Each window is one data point of an alarm's period, which CloudWatch takes sliding, every minute; a
 * period of 6 hours is within its limit (period × evaluation periods up to 7 days, from one hour up).
 */
export const BURN_PAIRS = [
  { name: 'Fast', burnRate: 14.4, long: Duration.hours(1), short: Duration.minutes(5) },
  { name: 'Slow', burnRate: 6, long: Duration.hours(6), short: Duration.minutes(30) },
];

/** Without the binary noise of 1 - 0.999 (0.0010000000000000009) in thresholds and expressions. */
const tidy = (value: number) => Number(value.toPrecision(12));
const percent = (share: number) => `${tidy(share * 100)} %`;

export type SloAlarmsProps = {
  settings: StageSettings;
  /** API Gateway's metrics of each route's method. */
  metrics: Pick<StageMetrics, 'api'>;
};

/** What one objective counts, and how to read its share of bad requests from the method's metrics. */
type Objective = {
  name: 'availability' | 'latency';
  /** The share of the requests that must be good. */
  target: number;
  /** The requests that spend its budget, in words. */
  bad: string;
  /** The share of the method's requests that were bad over `period`, 0 when there were none. */
  badShare: (period: Duration) => { expression: string; usingMetrics: Record<string, IMetric> };
};

export class SloAlarms extends Construct {
  /** Each route's 28-day budgets, as the percentage left (100: untouched; 0 or less: spent). */
  readonly budgetsLeft: { operationId: OperationId; availability: IMetric; latency: IMetric }[] = [];
  /** The burn-rate alarms, two for each objective of each route. */
  readonly alarms: CompositeAlarm[] = [];
  private readonly settings: StageSettings;

  constructor(scope: Construct, id: string, { settings, metrics }: SloAlarmsProps) {
    super(scope, id);
    this.settings = settings;
    for (const { operationId } of ROUTES) {
      const objectives = routeObjectives(metrics, operationId, settings.slos[operationId]);
      for (const objective of Object.values(objectives))
        this.burnRateAlarms(operationId, routeLabel(operationId), objective);
      this.budgetsLeft.push({
        operationId,
        availability: budgetLeft(operationId, objectives.availability),
        latency: budgetLeft(operationId, objectives.latency),
      });
    }
  }

  private burnRateAlarms(operationId: OperationId, route: string, objective: Objective) {
    const budget = tidy(1 - objective.target);
    const spend = `${objective.bad} spend its 28-day ${objective.name} budget (${percent(budget)} of its requests)`;
    const idPrefix = `${operationId}${objective.name[0]?.toUpperCase()}${objective.name.slice(1)}`;
    for (const { name, burnRate, long, short } of BURN_PAIRS) {
      const burn = `${route}: ${spend} over ${burnRate} times as fast as it lasts`;
      const windowAlarm = (window: Duration, which: string) =>
        // No actions: the pair's composite alarm fires when both windows burn at once.
        new Alarm(this, `${idPrefix}${name}${which}`, {
          alarmDescription: `Pet store ${this.settings.name}: ${burn}, in the last ${window.toHumanString()} (one window of a burn-rate alarm).`,
          metric: new MathExpression({
            ...objective.badShare(window),
            period: window,
            label: `${operationId}: share of ${objective.bad}`,
          }),
          threshold: tidy(burnRate * budget),
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          // A window without requests has FILL's 0; a missing point is no failure either.
          treatMissingData: TreatMissingData.NOT_BREACHING,
        });
      const alarm = new CompositeAlarm(this, `${idPrefix}${name}`, {
        alarmDescription: `Pet store ${this.settings.name}: ${burn}, in the last ${long.toHumanString()} and in the last ${short.toHumanString()}.`,
        alarmRule: AlarmRule.allOf(windowAlarm(long, 'Long'), windowAlarm(short, 'Short')),
      });
      // CDK would name it from its path; as the metric alarms, CloudFormation names it instead.
      (alarm.node.defaultChild as CfnCompositeAlarm).addPropertyDeletionOverride('AlarmName');
      this.alarms.push(alarm);
    }
  }
}

/**
 * API Gateway's metrics of the method: its 5xx (its own included) over its requests, which it counts
 * as Count's SampleCount; and Latency's percentile rank, the percentage of requests answered within
 * the threshold (PR(:t) takes t in, the lower bound out). Metric math treats a missing point of one
 * time series beside another as 0, but a window without requests has no point at all: FILL makes it
 * a share of 0, so that no traffic spends no budget. Each window spans several minutes, so a last
 * minute published late does not make the whole point FILL's.
 */
function routeObjectives(
  metrics: SloAlarmsProps['metrics'],
  operationId: OperationId,
  slo: StageSettings['slos'][OperationId],
): Record<Objective['name'], Objective> {
  const metric = (name: string, period: Duration, statistic: string) =>
    metrics.api(name, { period, statistic }, operationId);
  const { objective, thresholdMs } = slo.latency;
  return {
    availability: {
      name: 'availability',
      target: slo.availability,
      bad: '5xx answers',
      badShare: (period) => ({
        expression: 'FILL(errors / requests, 0)',
        usingMetrics: {
          errors: metric('5XXError', period, 'Sum'),
          requests: metric('Count', period, 'SampleCount'),
        },
      }),
    },
    latency: {
      name: 'latency',
      target: objective,
      bad: `answers slower than ${thresholdMs} ms`,
      badShare: (period) => ({
        expression: '(100 - FILL(withinThreshold, 100)) / 100',
        usingMetrics: { withinThreshold: metric('Latency', period, Stats.percentileRank(thresholdMs)) },
      }),
    },
  };
}

/**
 * The percentage of the budget left over the last 28 days, as one point of a 28-day period: a whole
 * number of hours, as GetMetricData asks of periods over old data (5 minutes from 15 days back).
 */
function budgetLeft(operationId: OperationId, objective: Objective): IMetric {
  const { expression, usingMetrics } = objective.badShare(BUDGET_PERIOD);
  return new MathExpression({
    expression: `100 * (1 - (${expression}) / ${tidy(1 - objective.target)})`,
    usingMetrics,
    period: BUDGET_PERIOD,
    label: `${operationId}: ${objective.name} budget left (%)`,
  });
}
