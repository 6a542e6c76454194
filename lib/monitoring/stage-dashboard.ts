// One CloudWatch dashboard per stage, `petstore-<stage>`: is it healthy, and if not, where. From the
// top: the alarms, the SLOs' budgets and the probe; then each route; then the authorizer, the
// functions, DynamoDB and the web ACL. Every graph draws metrics of ./stage-metrics.ts, the very
// objects the alarms judge (docs/decisions.md#the-dashboard).
import { Duration } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  SingleValueWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IAlarm, IMetric, IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { PetstoreFirewall } from '#lib/api/petstore-firewall.ts';
import { BUDGET_PERIOD } from '#lib/monitoring/slo-alarms.ts';
import type { SloAlarms } from '#lib/monitoring/slo-alarms.ts';
import { PERIOD } from '#lib/monitoring/stage-metrics.ts';
import type { StageMetrics } from '#lib/monitoring/stage-metrics.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { FUNCTION_NAMES } from '#functions/manifests.ts';
import { ROUTES } from '#shared/http/routes.ts';

const FULL_WIDTH = 24;
const HEIGHT = 6;

export type StageDashboardProps = {
  settings: StageSettings;
  metrics: StageMetrics;
  firewall?: PetstoreFirewall | undefined;
  slos: SloAlarms;
  /** The alarms on-call reads, shown at the top in one status widget. */
  alarms: IAlarm[];
};

/** A graph of a third of the width. */
const graph = (title: string, left: IMetric[], right: IMetric[] = []) =>
  new GraphWidget({ title, left, right, width: FULL_WIDTH / 3, height: HEIGHT });

export class StageDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: StageDashboardProps) {
    super(scope, id);
    const { settings, metrics } = props;
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `petstore-${settings.name}`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown: `# Pet store ${settings.name}\nRunbook: docs/deployment.md, "On call". What each alarm watches: docs/stages.md#alarms.`,
            width: FULL_WIDTH,
            height: 2,
          }),
        ],
        [new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: FULL_WIDTH, height: 4 })],
        budgetWidgets(props.slos),
        [graph('Probe: the best run of each 10 minutes (%)', [metrics.probePassed])],
        ...routeRows(metrics),
        [...authorizerGraphs(metrics), ...cacheGraphs(props)],
        functionGraphs(metrics),
        tableGraphs(metrics),
        ...(props.firewall ? [[firewallGraph(props.firewall)]] : []),
      ],
    });
  }
}

/**
 * What is left of each route's 28-day error budgets, in percent: one number each, over a range of its
 * own. A widget without one reads the dashboard's range (3 hours by default), not the budget's.
 */
function budgetWidgets(slos: SloAlarms): IWidget[] {
  const budgets = slos.budgetsLeft.flatMap(({ operationId, availability, latency }) => [
    { title: `${operationId}: availability budget left`, metric: availability },
    { title: `${operationId}: latency budget left`, metric: latency },
  ]);
  return budgets.map(
    ({ title, metric }) =>
      new SingleValueWidget({
        title,
        metrics: [metric],
        start: `-P${BUDGET_PERIOD.toDays()}D`,
        setPeriodToTimeRange: true,
        width: FULL_WIDTH / budgets.length,
        height: 4,
      }),
  );
}

/** Per route: its answers (its own 5xx and 429s apart), and p50 and p99 of its latency and its function's. */
function routeRows(metrics: StageMetrics): IWidget[][] {
  return ROUTES.map(({ operationId }) => {
    const route = metrics.route(operationId);
    const fn = metrics.function(operationId);
    return [
      graph(
        `${route.label}: requests`,
        [route.requests],
        [route.clientErrors, route.serverErrors, route.ownServerErrors, route.throttled],
      ),
      graph(`${route.label}: latency (ms)`, [
        route.latency('p50'),
        route.latency('p99'),
        route.integrationLatency('p50'),
        route.integrationLatency('p99'),
      ]),
      graph(`${route.label}: function`, [fn.duration('p99')], [fn.errors]),
    ];
  });
}

/** Calls, refusals and failures; its cache saves the calls that requests outnumber. */
function authorizerGraphs(metrics: StageMetrics) {
  const { refused, failures, cacheHitRate } = metrics.authorizer;
  return [
    graph(
      'Authorizer: calls, refused keys, failures',
      [metrics.function('authorizer').invocations, refused],
      [failures],
    ),
    graph('Authorizer: cache', [cacheHitRate]),
  ];
}

/** The stage cache of the cached methods, on a stage that has one: hits and misses. */
function cacheGraphs({ settings, metrics }: StageDashboardProps): IWidget[] {
  if (!settings.listCache) return [];
  const sum = { period: PERIOD, statistic: 'Sum' };
  const counts = API_METHODS.filter((method) => method.cacheKeyQueryParameters).flatMap(({ operationId }) =>
    operationId
      ? [metrics.api('CacheHitCount', sum, operationId), metrics.api('CacheMissCount', sum, operationId)]
      : [],
  );
  return [graph('Stage cache: hits and misses', counts)];
}

/** Every function: errors, throttles, concurrency, p99 duration, cold starts and init duration. */
function functionGraphs(metrics: StageMetrics) {
  const each = (metric: (fn: ReturnType<StageMetrics['function']>) => IMetric) =>
    FUNCTION_NAMES.map((name) => metric(metrics.function(name)));
  return [
    graph(
      'Functions: errors and throttles',
      each((fn) => fn.errors),
      each((fn) => fn.throttles),
    ),
    graph(
      'Functions: concurrency, p99 duration (ms)',
      each((fn) => fn.concurrency),
      each((fn) => fn.duration('p99')),
    ),
    graph(
      'Functions: cold starts, p99 init duration (ms)',
      each((fn) => fn.coldStarts),
      each((fn) => fn.initDuration('p99')),
    ),
  ];
}

/** Consumed capacity of the table and each index, and their throttle events, as their alarm adds them. */
function tableGraphs({ table }: StageMetrics): IWidget[] {
  return [
    graph('DynamoDB: consumed read units', table.consumedReads),
    graph('DynamoDB: consumed write units', table.consumedWrites),
    graph('DynamoDB: throttle events', [table.throttles]),
  ];
}

function firewallGraph(firewall: PetstoreFirewall): IWidget {
  return new GraphWidget({
    title: 'Web ACL: blocked requests by rule',
    left: firewall.blockedRequests(PERIOD),
    width: FULL_WIDTH,
    height: HEIGHT,
  });
}
