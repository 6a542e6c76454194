// One CloudWatch dashboard per stage, `petstore-<stage>`: is it healthy, and if not, where. From the
// top: the alarms, the probe and the SLOs' budgets; then each route; then the authorizer, the
// functions, DynamoDB and the web ACL. Written by hand from the metrics the alarms use, so that each
// graph is the one its alarm judges (docs/decisions.md#the-dashboard).
import { Duration } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IAlarm, IMetric, IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Canary } from 'aws-cdk-lib/aws-synthetics';
import { Construct } from 'constructs';
import type { AccessLogMetrics } from '#lib/api/access-log-metrics.ts';
import { apiMetric, methodOfRoute } from '#lib/api/gateway-metrics.ts';
import type { PetstoreFirewall } from '#lib/api/petstore-firewall.ts';
import type { SloAlarms } from '#lib/monitoring/slo-alarms.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import type { OperationId } from '#shared/http/routes.ts';
import { EMITTED_METRICS } from '#shared/observability.ts';
import { SECONDARY_INDEXES } from '#shared/store/table.ts';

const PERIOD = Duration.minutes(5);
const LATENCY_PERIOD = Duration.minutes(1);
const FULL_WIDTH = 24;
const HEIGHT = 6;

export type StageDashboardProps = {
  settings: StageSettings;
  /** The REST API's name, which its CloudWatch metrics carry as the ApiName dimension. */
  apiName: string;
  routeFunctions: Record<OperationId, IFunction>;
  authorizerFunction: IFunction;
  /** Each function's init duration by statistic (lib/monitoring/init-duration.ts), by name. */
  initDurations: Record<OperationId | 'authorizer', (statistic: string) => IMetric>;
  accessLogMetrics: AccessLogMetrics;
  table: ITable;
  firewall?: PetstoreFirewall | undefined;
  probe: Canary;
  slos: SloAlarms;
  /** Every alarm of the stage, shown at the top in one status widget. */
  alarms: IAlarm[];
};

const sum = { period: PERIOD, statistic: 'Sum' };

/** A graph of a third of the width. */
const graph = (title: string, left: IMetric[], right: IMetric[] = []) =>
  new GraphWidget({ title, left, right, width: FULL_WIDTH / 3, height: HEIGHT });

export class StageDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: StageDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `petstore-${props.settings.name}`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown: `# Pet store ${props.settings.name}\nRunbook: docs/deployment.md, "Is it healthy?". Every graph's alarm is in docs/stages.md#alarms.`,
            width: FULL_WIDTH,
            height: 2,
          }),
        ],
        [new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: FULL_WIDTH, height: 4 })],
        budgetWidgets(props.slos),
        [probeGraph(props.probe)],
        ...routeRows(props),
        [...authorizerGraphs(props), ...cacheGraphs(props)],
        functionGraphs(props),
        tableGraphs(props.table),
        ...(props.firewall ? [[firewallGraph(props.firewall)]] : []),
      ],
    });
  }
}

function probeGraph(probe: Canary): IWidget {
  return graph(
    'Probe: runs that passed (%)',
    [probe.metricSuccessPercent({ period: PERIOD })],
    [probe.metricFailed({ period: PERIOD, statistic: 'Sum' })],
  );
}

/** What is left of each route's 28-day error budgets, in percent: one number each. */
function budgetWidgets(slos: SloAlarms): IWidget[] {
  const budgets = slos.budgetsLeft.flatMap(({ operationId, availability, latency }) => [
    { title: `${operationId}: availability budget left`, metric: availability },
    { title: `${operationId}: latency budget left`, metric: latency },
  ]);
  return budgets.map(
    ({ title, metric }) =>
      new SingleValueWidget({ title, metrics: [metric], width: FULL_WIDTH / budgets.length, height: 4 }),
  );
}

/** Per route: its answers (429s apart), and p50 and p99 of its latency and its function's. */
function routeRows({ apiName, accessLogMetrics, routeFunctions }: StageDashboardProps): IWidget[][] {
  return (Object.keys(routeFunctions) as OperationId[]).map((operationId) => {
    const method = methodOfRoute(operationId);
    const route = `${method.httpMethod} ${method.resource}`;
    const latency = (metricName: string, statistic: string) =>
      apiMetric(apiName, metricName, { period: LATENCY_PERIOD, statistic }, method);
    return [
      graph(
        `${route}: requests`,
        [apiMetric(apiName, 'Count', sum, method)],
        [
          apiMetric(apiName, '4XXError', sum, method),
          apiMetric(apiName, '5XXError', sum, method),
          accessLogMetrics.throttledRequests(method, PERIOD),
        ],
      ),
      graph(`${route}: latency (ms)`, [
        latency('Latency', 'p50'),
        latency('Latency', 'p99'),
        latency('IntegrationLatency', 'p50'),
        latency('IntegrationLatency', 'p99'),
      ]),
      graph(
        `${route}: function`,
        [routeFunctions[operationId].metricDuration({ statistic: 'p99' })],
        [routeFunctions[operationId].metricErrors(sum)],
      ),
    ];
  });
}

/** Calls, refusals and failures; its cache saves the calls that requests outnumber. */
function authorizerGraphs({ apiName, authorizerFunction, accessLogMetrics }: StageDashboardProps) {
  const refused = new Metric({
    namespace: EMITTED_METRICS.namespace,
    metricName: 'AuthFailures',
    dimensionsMap: { service: EMITTED_METRICS.service },
    ...sum,
  });
  const cacheHitRate = new MathExpression({
    expression: '100 * (1 - FILL(calls, 0) / requests)',
    usingMetrics: {
      calls: authorizerFunction.metricInvocations(sum),
      requests: apiMetric(apiName, 'Count', sum),
    },
    label: "Requests answered from the authorizer's cache (%)",
    period: PERIOD,
  });
  return [
    graph(
      'Authorizer: calls, refused keys, failures',
      [authorizerFunction.metricInvocations(sum), refused],
      [accessLogMetrics.authorizerFailures(PERIOD)],
    ),
    graph('Authorizer: cache', [cacheHitRate]),
  ];
}

/** The stage cache of the cached methods, on a stage that has one: hits and misses. */
function cacheGraphs({ apiName, settings }: StageDashboardProps): IWidget[] {
  if (!settings.listCache) return [];
  const cached = API_METHODS.filter((method) => method.cacheKeyQueryParameters);
  const counts = cached.flatMap((method) => [
    apiMetric(apiName, 'CacheHitCount', sum, method),
    apiMetric(apiName, 'CacheMissCount', sum, method),
  ]);
  return [graph('Stage cache: hits and misses', counts)];
}

/** Every function: errors, throttles, concurrency, p99 duration, cold starts and init duration. */
function functionGraphs({ routeFunctions, authorizerFunction, initDurations }: StageDashboardProps) {
  const functions = { ...routeFunctions, authorizer: authorizerFunction };
  const each = (metric: (fn: IFunction) => IMetric) => Object.values(functions).map(metric);
  const coldStarts = Object.values(functions).map(
    (fn) =>
      new Metric({
        namespace: EMITTED_METRICS.namespace,
        metricName: EMITTED_METRICS.coldStart,
        dimensionsMap: { service: EMITTED_METRICS.service, function_name: fn.functionName },
        ...sum,
      }),
  );
  return [
    graph(
      'Functions: errors and throttles',
      each((fn) => fn.metricErrors(sum)),
      each((fn) => fn.metricThrottles(sum)),
    ),
    graph(
      'Functions: concurrency, p99 duration (ms)',
      each((fn) => fn.metric('ConcurrentExecutions', { period: PERIOD, statistic: 'Maximum' })),
      each((fn) => fn.metricDuration({ period: PERIOD, statistic: 'p99' })),
    ),
    graph(
      'Functions: cold starts, p99 init duration (ms)',
      coldStarts,
      Object.values(initDurations).map((metric) => metric('p99')),
    ),
  ];
}

/** Consumed capacity and throttle events of the table and each index. */
function tableGraphs(table: ITable): IWidget[] {
  const parts = [{}, ...SECONDARY_INDEXES.map(({ name }) => ({ GlobalSecondaryIndexName: name }))];
  const of = (metricName: string) =>
    parts.map(
      (dimensions) =>
        new Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap: { TableName: table.tableName, ...dimensions },
          ...sum,
        }),
    );
  return [
    graph('DynamoDB: consumed read units', of('ConsumedReadCapacityUnits')),
    graph('DynamoDB: consumed write units', of('ConsumedWriteCapacityUnits')),
    graph('DynamoDB: throttle events', [...of('ReadThrottleEvents'), ...of('WriteThrottleEvents')]),
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
