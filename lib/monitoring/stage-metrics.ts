// A stage's CloudWatch metrics, each built once: its alarms, its SLOs and its dashboard all take them
// from here, so that a graph shows the very metric, period and statistic its alarm judges. The
// functions' own metrics carry the stage (shared/observability.ts), so two stages of one account and
// region never add up.
import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Canary } from 'aws-cdk-lib/aws-synthetics';
import type { AccessLogMetrics } from '#lib/api/access-log-metrics.ts';
import { apiMetric, methodOfRoute, routeLabel } from '#lib/api/gateway-metrics.ts';
import type { FunctionName } from '#functions/manifests.ts';
import type { OperationId } from '#shared/http/routes.ts';
import { EMITTED_METRICS } from '#shared/observability.ts';
import { SECONDARY_INDEXES } from '#shared/store/table.ts';

/** A function of one key that builds each key's value at its first call, and returns it after. */
function builtOnce<Key, Value>(build: (key: Key) => Value): (key: Key) => Value {
  const built = new Map<Key, Value>();
  return (key) => {
    if (!built.has(key)) built.set(key, build(key));
    return built.get(key) as Value;
  };
}

/** The period of the counts: what the threshold alarms judge, and what the graphs draw. */
export const PERIOD = Duration.minutes(5);
/** Latency percentiles per minute: a p99 over five minutes would hide a bad minute. */
const LATENCY_PERIOD = Duration.minutes(1);
/** The probe's window: two of its runs, so that one run failed on the network between is no page. */
export const PROBE_WINDOW = Duration.minutes(10);

const sum = { period: PERIOD, statistic: 'Sum' };

export type StageMetricsProps = {
  /** The stage's name, which the functions' own metrics carry as their `stage` dimension. */
  stage: string;
  /** The REST API's name, which its CloudWatch metrics carry as the ApiName dimension. */
  apiName: string;
  functions: Record<FunctionName, IFunction>;
  /** Each function's init duration by statistic (lib/monitoring/init-duration.ts). */
  initDurations: Record<FunctionName, (statistic: string) => IMetric>;
  accessLogMetrics: AccessLogMetrics;
  table: ITable;
  probe: Canary;
};

export type StageMetrics = ReturnType<typeof stageMetrics>;

export function stageMetrics(props: StageMetricsProps) {
  const { stage, apiName, functions, initDurations, accessLogMetrics, table, probe } = props;
  /** One of the functions' own counts (EMF), of this stage. */
  const emitted = (metricName: string, dimensions: Record<string, string> = {}) =>
    new Metric({
      namespace: EMITTED_METRICS.namespace,
      metricName,
      dimensionsMap: { service: EMITTED_METRICS.service, stage, ...dimensions },
      ...sum,
    });
  /** The table and each index, by the id a metric math expression gives its metrics. */
  const tableParts = [
    { id: 'table', dimensions: {} },
    ...SECONDARY_INDEXES.map(({ name }) => ({
      // A metric id is a lower-case letter, then letters, digits and _: an index name may hold - and .
      id: `index_${name.replace(/[^A-Za-z0-9_]/g, '_')}`,
      dimensions: { GlobalSecondaryIndexName: name },
    })),
  ];
  /** A DynamoDB metric of the table and of each index, by id. */
  const ofTable = (metricName: string, idSuffix = '') =>
    tableParts.map(({ id, dimensions }) => ({
      id: `${id}${idSuffix}`,
      metric: new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: table.tableName, ...dimensions },
        ...sum,
      }),
    }));
  // An index whose writes are throttled throttles the table's writes that feed it.
  const throttleEvents = [
    ...ofTable('ReadThrottleEvents', '_reads'),
    ...ofTable('WriteThrottleEvents', '_writes'),
  ];
  const metricsOf = (parts: { metric: Metric }[]) => parts.map(({ metric }) => metric);

  return {
    /** API Gateway's metric of the stage, or of one route's method, over any period. */
    api: (metricName: string, options: { period: Duration; statistic: string }, route?: OperationId) =>
      apiMetric(apiName, metricName, options, route && methodOfRoute(route)),

    /** One route: its answers and latency as API Gateway counts them, and its function's own. */
    route: builtOnce((operationId: OperationId) => {
      const method = methodOfRoute(operationId);
      const latency = (metricName: string) => (statistic: string) =>
        apiMetric(apiName, metricName, { period: LATENCY_PERIOD, statistic }, method);
      return {
        label: routeLabel(operationId),
        requests: apiMetric(apiName, 'Count', sum, method),
        clientErrors: apiMetric(apiName, '4XXError', sum, method),
        serverErrors: apiMetric(apiName, '5XXError', sum, method),
        /** Its 5xx but those that blame the authorizer: what its own release can break. */
        ownServerErrors: accessLogMetrics.routeServerErrors(method, PERIOD),
        throttled: accessLogMetrics.throttledRequests(method, PERIOD),
        latency: latency('Latency'),
        integrationLatency: latency('IntegrationLatency'),
      };
    }),

    /** One function's invocations as Lambda counts them, and its cold starts as it counts them. */
    function: builtOnce((name: FunctionName) => {
      const fn = functions[name];
      return {
        invocations: fn.metricInvocations(sum),
        errors: fn.metricErrors(sum),
        throttles: fn.metricThrottles(sum),
        concurrency: fn.metric('ConcurrentExecutions', { period: PERIOD, statistic: 'Maximum' }),
        duration: (statistic: string) => fn.metricDuration({ period: PERIOD, statistic }),
        coldStarts: emitted(EMITTED_METRICS.coldStart, { function_name: fn.functionName }),
        initDuration: initDurations[name],
      };
    }),

    authorizer: {
      /** Keys the authorizer refused: unknown, revoked or expired. */
      refused: emitted('AuthFailures'),
      /** Requests API Gateway could not authorize: the authorizer failed, timed out or made no sense. */
      failures: accessLogMetrics.authorizerFailures(PERIOD),
      cacheHitRate: new MathExpression({
        expression: '100 * (1 - FILL(calls, 0) / requests)',
        usingMetrics: {
          calls: functions.authorizer.metricInvocations(sum),
          requests: apiMetric(apiName, 'Count', sum),
        },
        label: "Requests answered from the authorizer's cache (%)",
        period: PERIOD,
      }),
    },

    table: {
      consumedReads: metricsOf(ofTable('ConsumedReadCapacityUnits')),
      consumedWrites: metricsOf(ofTable('ConsumedWriteCapacityUnits')),
      /** Every throttle event of the table and its indexes, a missing point as 0. */
      throttles: new MathExpression({
        expression: throttleEvents.map(({ id }) => `FILL(${id}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(throttleEvents.map(({ id, metric }) => [id, metric])),
        period: PERIOD,
        label: 'DynamoDB throttle events',
      }),
    },

    /** The best of the probe's runs in its window: 0 when none passed, no point when none ran. */
    probePassed: probe.metricSuccessPercent({ period: PROBE_WINDOW, statistic: 'Maximum' }),
  };
}
