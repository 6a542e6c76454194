// The burn-rate alarms of each route's objectives (lib/monitoring/slo-alarms.ts): the template's pairs
// of windows, their thresholds and the topic; then the same alarms, read from the template, run over
// synthetic traffic (./alarm-simulator.ts) with the stage's own objectives, so that each pair is shown
// to page for the burn it is for and not for a lesser one, a spike or a quiet night.
import { describe, expect, test } from '@jest/globals';
import { App, Stack } from 'aws-cdk-lib';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { apiMetric, methodOfRoute } from '#lib/api/gateway-metrics.ts';
import { SloAlarms } from '#lib/monitoring/slo-alarms.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import {
  AlarmSimulator,
  alarmRuleText,
  methodTraffic,
  windowValue,
} from '#test/lib/monitoring/alarm-simulator.ts';
import type { MetricQuery, Minute } from '#test/lib/monitoring/alarm-simulator.ts';

/** The SRE workbook's paging pairs: burn rate, then the long and the short window in seconds. */
const PAIRS = [
  { pair: 'Fast', burnRate: 14.4, long: 3_600, short: 300 },
  { pair: 'Slow', burnRate: 6, long: 21_600, short: 1_800 },
];
const HOUR = 60;
const REQUESTS_PER_MINUTE = 100;

const ROUTES = API_METHODS.flatMap(({ operationId, httpMethod, resource }) =>
  operationId ? [{ operationId, httpMethod, resource }] : [],
);

/** Each objective of each route, with its share of requests that may be bad: its budget. */
function objectivesOf({ settings }: SynthesizedStage) {
  return ROUTES.flatMap((route) => {
    const slo = settings.slos[route.operationId];
    return [
      {
        ...route,
        objective: 'Availability',
        budget: 1 - slo.availability,
        thresholdMs: slo.latency.thresholdMs,
      },
      {
        ...route,
        objective: 'Latency',
        budget: 1 - slo.latency.objective,
        thresholdMs: slo.latency.thresholdMs,
      },
    ];
  });
}
type RouteObjective = ReturnType<typeof objectivesOf>[number];

/**
 * Steady traffic whose bad share is `badShare(minute)`: 5xx answers for availability, answers over the
 * threshold for latency. A share over 1 is no traffic that exists, so it fails the check instead.
 */
function traffic(objective: RouteObjective, minutes: number, badShare: (minute: number) => number): Minute[] {
  return Array.from({ length: minutes }, (_, minute) => {
    const share = badShare(minute);
    if (share > 1) throw new Error(`${objective.objective}: no traffic has a bad share of ${share}`);
    const bad = objective.objective === 'Availability' ? share : 0;
    return {
      requests: REQUESTS_PER_MINUTE,
      serverErrors: REQUESTS_PER_MINUTE * bad,
      withinShare: objective.objective === 'Latency' ? 1 - share : 1,
    };
  });
}
/** Six clean hours (the longest window), then `share` of bad requests for `hours`, then two clean ones. */
const BURN_START = 6 * HOUR;
const burn = (objective: RouteObjective, share: number, hours: number) =>
  traffic(objective, BURN_START + (hours + 2) * HOUR, (minute) =>
    minute >= BURN_START && minute < BURN_START + hours * HOUR ? share : 0,
  );
/** The first minute in ALARM, counted from the start of the burn; undefined when never. */
const firstAlarm = (states: boolean[]) => {
  const minute = states.indexOf(true);
  return minute === -1 ? undefined : minute - BURN_START;
};

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name } = stage;
  const objectives = objectivesOf(stage);
  // By construct id: CloudFormation names the alarms (<stack>-Slos<id><hash>-<suffix>).
  const byId = (type: string) =>
    new Map(
      stage
        .all(type)
        .filter(([logicalId]) => logicalId.startsWith('Slos'))
        .map(([logicalId]) => [logicalId.replace(/^Slos(\w+)[0-9A-F]{8}$/, '$1'), logicalId]),
    );
  const composites = byId('AWS::CloudWatch::CompositeAlarm');
  const windows = byId('AWS::CloudWatch::Alarm');
  const cases = objectives.flatMap((objective) => PAIRS.map((pair) => ({ ...objective, ...pair })));
  const idOf = ({ operationId, objective, pair }: (typeof cases)[number]) =>
    `${operationId}${objective}${pair}`;

  describe('SLO burn-rate alarms', () => {
    test('for each objective of each route, a fast and a slow pair: two window alarms and the composite', () => {
      expect([...composites.keys()].sort()).toEqual(cases.map(idOf).sort());
      expect([...windows.keys()].sort()).toEqual(
        cases.flatMap((pairCase) => [`${idOf(pairCase)}Long`, `${idOf(pairCase)}Short`]).sort(),
      );
      expect(composites.size).toBe(ROUTES.length * 2 * PAIRS.length);
    });

    test.each(cases)(
      '$operationId $objective $pair: ALARM(long) AND ALARM(short), with no action of its own',
      (pairCase) => {
        const id = idOf(pairCase);
        const composite = stage.resource(defined(composites.get(id), id)).Properties;
        const [long, short] = [`${id}Long`, `${id}Short`].map((window) =>
          defined(windows.get(window), window),
        );
        expect(alarmRuleText(composite.AlarmRule)).toBe(`(ALARM("${long}") AND ALARM("${short}"))`);
        for (const property of ['AlarmActions', 'OKActions', 'InsufficientDataActions', 'AlarmName'])
          expect(composite[property]).toBeUndefined();
        const route = `${pairCase.httpMethod} ${pairCase.resource}`;
        expect(composite.AlarmDescription).toMatch(new RegExp(`^Pet store ${name}: `));
        for (const words of [route, pairCase.objective.toLowerCase(), `${pairCase.burnRate} times`])
          expect(composite.AlarmDescription).toContain(words);
      },
    );

    test.each(cases)(
      "$operationId $objective $pair: each window's ratio, period and threshold, and no action of its own",
      (pairCase) => {
        const { budget, burnRate, thresholdMs, httpMethod, resource } = pairCase;
        for (const [window, period] of [
          ['Long', pairCase.long],
          ['Short', pairCase.short],
        ] as const) {
          const alarm = stage.resource(defined(windows.get(`${idOf(pairCase)}${window}`), window)).Properties;
          expect(alarm).toMatchObject({
            ComparisonOperator: 'GreaterThanThreshold',
            EvaluationPeriods: 1,
            TreatMissingData: 'notBreaching',
          });
          expect(alarm.Threshold).toBeCloseTo(burnRate * budget, 12);
          for (const property of ['AlarmActions', 'OKActions', 'InsufficientDataActions', 'AlarmName'])
            expect(alarm[property]).toBeUndefined();
          const queries = alarm.Metrics as MetricQuery[];
          expect(
            queries.filter((query) => query.ReturnData).map((query) => Boolean(query.Expression)),
          ).toEqual([true]);
          const stats = queries.flatMap(({ MetricStat }) => (MetricStat ? [MetricStat] : []));
          for (const stat of stats)
            expect(stat).toMatchObject({
              Period: period,
              Metric: {
                Namespace: 'AWS/ApiGateway',
                Dimensions: [
                  { Name: 'ApiName', Value: `petstore-${name}` },
                  { Name: 'Method', Value: httpMethod },
                  { Name: 'Resource', Value: resource },
                  { Name: 'Stage', Value: 'v1' },
                ],
              },
            });
          expect(stats.map(({ Metric, Stat }) => `${Metric.MetricName} ${Stat}`).sort()).toEqual(
            pairCase.objective === 'Availability'
              ? ['5XXError Sum', 'Count SampleCount']
              : [`Latency PR(:${thresholdMs})`],
          );
        }
      },
    );
  });

  describe('SLO burn-rate alarms over synthetic traffic, with the stage objectives', () => {
    test.each(objectives)('$operationId $objective', (objective) => {
      const simulator = new AlarmSimulator(stage);
      const logicalId = (id: string) => defined(composites.get(id) ?? windows.get(id), id);
      const pair = `${objective.operationId}${objective.objective}`;
      const states = (id: string, series: Minute[]) =>
        simulator.inAlarm(logicalId(`${pair}${id}`), methodTraffic(series, objective.thresholdMs));
      const { budget } = objective;

      // 15 times the rate the budget lasts at: the fast pair pages within its hour, the slow one later.
      const atFifteen = burn(objective, 15 * budget, 8);
      const fast = defined(firstAlarm(states('Fast', atFifteen)), 'the fast page');
      const slow = defined(firstAlarm(states('Slow', atFifteen)), 'the slow page');
      expect(fast).toBeGreaterThan(0);
      expect(fast).toBeLessThan(HOUR);
      expect(slow).toBeGreaterThan(fast);
      expect(slow).toBeLessThan(6 * HOUR);

      // Once a heavy burn stops, its short window ends the fast page within 5 minutes, while the hour
      // still burns over 14.4 times.
      const heavy = burn(objective, Math.min(1, 60 * budget), 2);
      const stop = BURN_START + 2 * HOUR;
      expect(states('Fast', heavy)[stop - 1]).toBe(true);
      expect(
        states('Fast', heavy)
          .slice(stop + 4)
          .includes(true),
      ).toBe(false);
      expect(states('FastLong', heavy)[stop + 10]).toBe(true);

      // 7 times: the slow pair pages, the fast one never does.
      const atSeven = burn(objective, 7 * budget, 8);
      expect(firstAlarm(states('Slow', atSeven))).toBeDefined();
      expect(firstAlarm(states('Fast', atSeven))).toBeUndefined();

      // The budget spent just as fast as it lasts pages no one.
      const steady = burn(objective, budget, 8);
      for (const id of ['Fast', 'Slow']) expect(firstAlarm(states(id, steady))).toBeUndefined();

      // Five bad minutes: the 5-minute window burns over 14.4 times, the hour does not; no page.
      const spikeShare = Math.min(1, 2 * 14.4 * budget);
      const spike = traffic(objective, BURN_START + 8 * HOUR, (minute) =>
        minute >= BURN_START && minute < BURN_START + 5 ? spikeShare : 0,
      );
      expect(firstAlarm(states('FastShort', spike))).toBeDefined();
      expect(firstAlarm(states('FastLong', spike))).toBeUndefined();
      for (const id of ['Fast', 'Slow']) expect(firstAlarm(states(id, spike))).toBeUndefined();

      // No requests at all: every window's share is FILL's 0, so not one window breaches.
      const quiet: Minute[] = Array.from({ length: 8 * HOUR }, () => ({
        requests: 0,
        serverErrors: 0,
        withinShare: 0,
      }));
      for (const id of ['FastLong', 'FastShort', 'SlowLong', 'SlowShort'])
        expect(states(id, quiet).includes(true)).toBe(false);
    });
  });

  describe("each route's 28-day budget left, for the dashboard", () => {
    const stack = new Stack(new App(), 'Budgets');
    const { budgetsLeft } = new SloAlarms(stack, 'Slos', {
      settings: stage.settings,
      metrics: {
        api: (metricName, options, route) =>
          apiMetric(`petstore-${name}`, metricName, options, route && methodOfRoute(route)),
      },
    });
    /** The expression as GetMetricData would be asked it, with its metrics' periods. */
    const queriesOf = (metric: IMetric): MetricQuery[] => {
      const { expression, usingMetrics } = defined(metric.toMetricConfig().mathExpression, 'an expression');
      const metrics = Object.entries(usingMetrics).map(([Id, used]) => {
        const stat = defined(used.toMetricConfig().metricStat, Id);
        return {
          Id,
          ReturnData: false,
          MetricStat: {
            Metric: { Namespace: stat.namespace, MetricName: stat.metricName },
            Period: stat.period.toSeconds(),
            Stat: stat.statistic,
          },
        };
      });
      return [{ Id: 'budgetLeft', Expression: expression, ReturnData: true }, ...metrics];
    };
    const DAYS_28 = 28 * 24 * HOUR;

    test.each(objectives)(
      '$operationId $objective: 100 % untouched, 50 % at half the rate, 0 % spent',
      (objective) => {
        const budgets = defined(
          budgetsLeft.find(({ operationId }) => operationId === objective.operationId),
          'budgets',
        );
        const queries = queriesOf(
          objective.objective === 'Availability' ? budgets.availability : budgets.latency,
        );
        expect(queries.slice(1).every(({ MetricStat }) => MetricStat?.Period === DAYS_28 * 60)).toBe(true);
        const leftAfter = (series: Minute[]) =>
          windowValue(queries, methodTraffic(series, objective.thresholdMs))(DAYS_28 - 1);
        const at = (share: number) => leftAfter(traffic(objective, DAYS_28, () => share));
        expect(at(0)).toBeCloseTo(100, 9);
        expect(at(objective.budget / 2)).toBeCloseTo(50, 9);
        expect(at(objective.budget)).toBeCloseTo(0, 9);
        const quiet = Array.from({ length: DAYS_28 }, () => ({
          requests: 0,
          serverErrors: 0,
          withinShare: 0,
        }));
        expect(leftAfter(quiet)).toBeCloseTo(100, 9);
      },
    );
  });
});
