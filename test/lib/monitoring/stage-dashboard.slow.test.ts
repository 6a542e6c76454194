// Each stage's dashboard (lib/monitoring/stage-dashboard.ts), read from the synthesized DashboardBody:
// every widget's metric against what is emitted (./emitted-metrics.ts), so that a graph of nothing
// fails here rather than stays empty; each alarm's metric drawn as judged; the budgets over 28 days;
// what on-call must find on it; and the init-duration metric filters its function graphs read.
import { describe, expect, test } from '@jest/globals';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { EMITTED_METRICS } from '#shared/observability.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { FUNCTION_IDS, FUNCTION_ID_OF, logGroupOf, ref } from '#test/lib/templates.ts';
import {
  cachedMethods,
  dashboardOf,
  describeMetric,
  emittedMetrics,
  expressionIds,
  getAttMarker,
  metricKey,
  readRow,
  refMarker,
  rowsOf,
  statOf,
  titleOf,
  unemittedMetrics,
} from '#test/lib/monitoring/emitted-metrics.ts';
import type { DashboardBody, MetricRow, Row, Widget } from '#test/lib/monitoring/emitted-metrics.ts';

const DAYS_28 = 28 * 24 * 3600;

/** The seconds a relative ISO 8601 range reaches back: -P28D, -PT3H, -P4W, -PT90M. */
function rangeSeconds(start: string): number {
  const match = /^-P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(start);
  if (!match || start === '-P' || start.endsWith('T'))
    throw new Error(`Not a relative ISO 8601 range: ${start}`);
  const [weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  return (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds;
}

/** The period CloudWatch draws a row with: its own, else its widget's, else 300 seconds. */
const periodOf = (row: Row, widget: Widget) => Number(row.options.period ?? widget.properties.period ?? 300);

/**
 * How much time a single-value widget's number covers: its range (its own, else the dashboard's),
 * or, unless it sets its period to that range, no more than the period of its rows.
 */
function secondsRead(widget: Widget, body: DashboardBody): number {
  if (widget.properties.end !== undefined) throw new Error(`${titleOf(widget)}: a fixed end`);
  const range = rangeSeconds(String(widget.properties.start ?? body.start));
  if (widget.properties.setPeriodToTimeRange === true) return range;
  return Math.min(range, ...rowsOf(widget).map((row) => periodOf(row, widget)));
}

/** Each function of the stage by the name the stack gives it: the routes' operationIds and authorizer. */
const FUNCTIONS: Record<string, string> = FUNCTION_ID_OF;

describe.each([synthesized.staging, synthesized.production])(
  'the $name dashboard',
  (stage: SynthesizedStage) => {
    const { name, settings } = stage;
    const { name: dashboardName, body } = dashboardOf(stage);
    const emitted = emittedMetrics(stage);
    const [, restApi] = stage.only('AWS::ApiGateway::RestApi');
    const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
    const apiName = String(restApi.Properties.Name);
    const stageMetrics = `PetStore/${apiName}`;
    const [tableId, table] = stage.only('AWS::DynamoDB::Table');
    const [canaryId] = stage.only('AWS::Synthetics::Canary');

    /** Every metric row of the dashboard, with the statistic it is drawn with. */
    const shown = body.widgets.flatMap((widget) =>
      rowsOf(widget).flatMap((row) => (row.kind === 'metric' ? [{ ...row, stat: statOf(row, widget) }] : [])),
    );
    /** The rows of this metric, and the statistics they are drawn with. */
    const statsOf = (namespace: string, metricName: string, dimensions: Record<string, string>) => {
      const key = metricKey({ namespace, metricName, dimensions });
      return shown.filter((row) => metricKey(row) === key).map((row) => row.stat);
    };
    /** Each metric the dashboard must show, that it does not (by its description, for the failure). */
    const missing = (
      wanted: { namespace: string; metricName: string; dimensions: Record<string, string> }[],
    ) =>
      wanted
        .filter((metric) => statsOf(metric.namespace, metric.metricName, metric.dimensions).length === 0)
        .map(describeMetric);

    test(`named petstore-${name}`, () => {
      expect(dashboardName).toBe(`petstore-${name}`);
      expect(apiName).toBe(`petstore-${name}`);
    });

    test('every metric row of every widget names a metric the stack, its functions or AWS emit', () => {
      expect(shown.length).toBeGreaterThan(0);
      expect(unemittedMetrics(body, emitted)).toEqual([]);
    });

    test("every math expression reads only ids of its widget's rows", () => {
      const undefinedIds = body.widgets.flatMap((widget) => {
        const rows = rowsOf(widget);
        const ids = new Set(rows.map((row) => row.options.id));
        return rows.flatMap((row) =>
          row.kind === 'expression'
            ? expressionIds(row.expression)
                .filter((id) => !ids.has(id))
                .map((id) => `${titleOf(widget)}: ${id} in ${row.expression}`)
            : [],
        );
      });
      expect(undefinedIds).toEqual([]);
      const expressions = body.widgets.flatMap((widget) =>
        rowsOf(widget).filter((row) => row.kind === 'expression'),
      );
      expect(expressions.length).toBeGreaterThan(0);
      for (const row of expressions) expect(expressionIds(row.expression).length).toBeGreaterThan(0);
    });

    describe('the check itself', () => {
      test('reports a widget naming a metric nothing emits, by its title', () => {
        const mutated = structuredClone(body) as DashboardBody;
        /** Changes the first row `find` picks, and gives the title of its widget. */
        const change = (find: (row: MetricRow) => boolean, edit: (row: unknown[]) => void) => {
          for (const widget of mutated.widgets)
            for (const row of (widget.properties.metrics ?? []) as unknown[][]) {
              const read = readRow(row);
              if (read.kind !== 'metric' || !find(read)) continue;
              edit(row);
              return titleOf(widget);
            }
          throw new Error('no row to change');
        };
        const lambda = change(
          (row) => row.namespace === 'AWS/Lambda' && row.metricName === 'Errors',
          (row) => row.splice(1, 1, 'Errorz'),
        );
        const count = change(
          (row) => row.namespace === EMITTED_METRICS.namespace && row.metricName === 'AuthFailures',
          (row) => row.splice(1, 1, 'AuthFailurez'),
        );
        // A metric that is emitted, but not with a Resource no method has.
        const throttled = change(
          (row) => row.metricName === 'ThrottledRequests',
          (row) => row.splice(row.indexOf('Resource') + 1, 1, '/petz'),
        );
        const failures = unemittedMetrics(mutated, emitted);
        expect(failures).toHaveLength(3);
        expect(failures).toEqual(
          expect.arrayContaining([
            expect.stringContaining(`${lambda}: AWS/Lambda Errorz {FunctionName=`),
            expect.stringContaining(`${count}: ${EMITTED_METRICS.namespace} AuthFailurez {service=`),
            expect.stringContaining(`${throttled}: ${stageMetrics} ThrottledRequests {Method=`),
          ]),
        );
        expect(failures.find((failure) => failure.includes('ThrottledRequests'))).toContain('Resource=/petz');
      });

      test('refuses a row it cannot read rather than skip it', () => {
        expect(() => readRow(['...', 'Errors'])).toThrow(/shorthand/);
        expect(() => readRow(['AWS/Lambda', 'Errors', '.', 'x'])).toThrow(/shorthand/);
        expect(() => readRow(['AWS/Lambda', 'Errors', 'FunctionName'])).toThrow(/pairs/);
        expect(() => readRow([{ label: 'neither' }])).toThrow(/neither/);
        expect(() => expressionIds('SEARCH(\'{AWS/Lambda,FunctionName} Errors\', "Sum", 300)')).toThrow();
      });

      test('the catalogue holds each metric filter of the template, and names the source of each metric', () => {
        for (const [, filter] of stage.all('AWS::Logs::MetricFilter'))
          for (const { MetricNamespace, MetricName } of filter.Properties
            .MetricTransformations as Properties[])
            expect(
              emitted.some(
                (metric) => metric.namespace === MetricNamespace && metric.metricName === MetricName,
              ),
            ).toBe(true);
        for (const metric of emitted)
          expect(metric.source).toMatch(
            /^(AWS::Logs::MetricFilter |shared\/|https:\/\/docs\.aws\.amazon\.com\/)/,
          );
      });
    });

    describe('what on-call must find on it', () => {
      const routes = API_METHODS.flatMap(({ operationId, httpMethod, resource }) =>
        operationId ? [{ operationId, httpMethod, resource }] : [],
      );
      const apiDimensions = (method?: { httpMethod: string; resource: string }) => ({
        ApiName: apiName,
        ...(method && { Method: method.httpMethod, Resource: method.resource }),
        Stage: String(apiStage.Properties.StageName),
      });

      test.each(routes)(
        "$httpMethod $resource: answers, 429s, p50 and p99 of its latency and its function's",
        (route) => {
          const method = { Method: route.httpMethod, Resource: route.resource };
          expect(
            missing([
              ...['Count', '4XXError', '5XXError'].map((metricName) => ({
                namespace: 'AWS/ApiGateway',
                metricName,
                dimensions: apiDimensions(route),
              })),
              { namespace: stageMetrics, metricName: 'ThrottledRequests', dimensions: method },
            ]),
          ).toEqual([]);
          for (const metricName of ['Latency', 'IntegrationLatency'])
            expect(statsOf('AWS/ApiGateway', metricName, apiDimensions(route))).toEqual(
              expect.arrayContaining(['p50', 'p99']),
            );
        },
      );

      test(
        settings.listCache ? "the stage cache's hits and misses of each cached method" : 'no stage cache',
        () => {
          const cacheRows = shown.filter((row) => row.metricName.startsWith('Cache'));
          if (!settings.listCache) {
            expect(cachedMethods(stage)).toEqual([]);
            expect(cacheRows).toEqual([]);
            return;
          }
          const cached = cachedMethods(stage);
          expect(cached.length).toBeGreaterThan(0);
          expect(
            missing(
              cached.flatMap(({ httpMethod, path }) =>
                ['CacheHitCount', 'CacheMissCount'].map((metricName) => ({
                  namespace: 'AWS/ApiGateway',
                  metricName,
                  dimensions: apiDimensions({ httpMethod, resource: path }),
                })),
              ),
            ),
          ).toEqual([]);
        },
      );

      test("the authorizer's calls, its refused keys and API Gateway's failures to use it", () => {
        expect(
          missing([
            {
              namespace: 'AWS/Lambda',
              metricName: 'Invocations',
              dimensions: { FunctionName: refMarker('AuthorizerFunction') },
            },
            { namespace: stageMetrics, metricName: 'AuthorizerFailures', dimensions: {} },
            {
              namespace: EMITTED_METRICS.namespace,
              metricName: 'AuthFailures',
              dimensions: { service: EMITTED_METRICS.service, stage: name },
            },
          ]),
        ).toEqual([]);
      });

      test.each(Object.entries(FUNCTIONS))(
        '%s: errors, throttles, concurrency, duration, cold starts, init duration',
        (functionName, functionId) => {
          const byName = { FunctionName: refMarker(functionId) };
          expect(
            missing([
              ...['Errors', 'Throttles', 'ConcurrentExecutions', 'Duration'].map((metricName) => ({
                namespace: 'AWS/Lambda',
                metricName,
                dimensions: byName,
              })),
              {
                namespace: EMITTED_METRICS.namespace,
                metricName: EMITTED_METRICS.coldStart,
                dimensions: {
                  service: EMITTED_METRICS.service,
                  stage: name,
                  function_name: refMarker(functionId),
                },
              },
              { namespace: stageMetrics, metricName: `${functionName}InitDuration`, dimensions: {} },
            ]),
          ).toEqual([]);
        },
      );

      test('DynamoDB: consumed read and write units and throttle events of the table and each index', () => {
        const indexes = ((table.Properties.GlobalSecondaryIndexes ?? []) as { IndexName: string }[]).map(
          ({ IndexName }) => ({ TableName: refMarker(tableId), GlobalSecondaryIndexName: IndexName }),
        );
        expect(indexes.length).toBeGreaterThan(0);
        const parts = [{ TableName: refMarker(tableId) }, ...indexes];
        const metricNames = [
          'ConsumedReadCapacityUnits',
          'ConsumedWriteCapacityUnits',
          'ReadThrottleEvents',
          'WriteThrottleEvents',
        ];
        expect(
          missing(
            parts.flatMap((dimensions) =>
              metricNames.map((metricName) => ({ namespace: 'AWS/DynamoDB', metricName, dimensions })),
            ),
          ),
        ).toEqual([]);
      });

      test(settings.firewall ? 'the requests each rule of the web ACL blocked' : 'no web ACL graph', () => {
        const webAcls = stage.all('AWS::WAFv2::WebACL');
        const wafRows = shown.filter((row) => row.namespace === 'AWS/WAFV2');
        if (!settings.firewall) {
          expect(webAcls).toEqual([]);
          expect(wafRows).toEqual([]);
          return;
        }
        const [[, webAcl] = []] = webAcls;
        const metricNameOf = (config: unknown) => (config as { MetricName: string }).MetricName;
        const rules = defined(webAcl, 'the web ACL').Properties.Rules as { VisibilityConfig: unknown }[];
        expect(wafRows.map((row) => row.dimensions.Rule).sort()).toEqual(
          rules.map((rule) => metricNameOf(rule.VisibilityConfig)).sort(),
        );
        for (const row of wafRows)
          expect(row).toMatchObject({
            metricName: 'BlockedRequests',
            dimensions: {
              WebACL: metricNameOf(webAcl?.Properties.VisibilityConfig),
              Region: stage.region,
            },
            stat: 'Sum',
          });
      });

      test("the probe's runs that passed", () => {
        expect(
          statsOf('CloudWatchSynthetics', 'SuccessPercent', { CanaryName: refMarker(canaryId) }).length,
        ).toBeGreaterThan(0);
      });

      test("six numbers: what is left of each route's availability and latency budgets", () => {
        const numbers = body.widgets.filter((widget) => widget.properties.view === 'singleValue');
        expect(numbers).toHaveLength(2 * routes.length);
        expect(numbers).toHaveLength(6);
        for (const widget of numbers) {
          const rows = rowsOf(widget);
          const shownRows = rows.filter((row) => row.options.visible !== false);
          expect(shownRows).toHaveLength(1);
          expect(shownRows[0]).toMatchObject({
            kind: 'expression',
            options: { label: expect.stringMatching(/budget left/) },
          });
        }
        const titles = numbers.map(titleOf);
        for (const { operationId } of routes)
          for (const objective of ['availability', 'latency'])
            expect(titles).toContain(`${operationId}: ${objective} budget left`);
      });

      test('each budget reads its whole 28 days, whatever range the dashboard shows', () => {
        const numbers = body.widgets.filter((widget) => widget.properties.view === 'singleValue');
        expect(numbers.map((widget) => secondsRead(widget, body))).toEqual(numbers.map(() => DAYS_28));
        // The dashboard itself opens on hours: the widgets' own range is what keeps the budget's.
        expect(rangeSeconds(String(body.start))).toBeLessThan(DAYS_28);
      });

      test("one alarm status widget: every alarm on-call reads, the SLOs' windows aside", () => {
        const statusWidgets = body.widgets.filter((widget) => widget.type === 'alarm');
        expect(statusWidgets).toHaveLength(1);
        const metricAlarms = stage
          .all('AWS::CloudWatch::Alarm')
          .filter(([id]) => !/^Slos\w+(Long|Short)[0-9A-F]{8}$/.test(id));
        const composite = stage.all('AWS::CloudWatch::CompositeAlarm');
        expect(metricAlarms.length).toBeGreaterThan(0);
        expect(composite.length).toBeGreaterThan(0);
        const listed = defined(statusWidgets[0], 'the alarm widget').properties.alarms as string[];
        expect([...listed].sort()).toEqual(
          [...metricAlarms, ...composite].map(([id]) => getAttMarker(id, 'Arn')).sort(),
        );
      });

      test("each metric alarm's metric, with the statistic and period it is judged by", () => {
        const drawn = new Set(
          body.widgets.flatMap((widget) =>
            rowsOf(widget).flatMap((row) =>
              row.kind === 'metric'
                ? [`${metricKey(row)} ${statOf(row, widget)} ${periodOf(row, widget)}`]
                : [],
            ),
          ),
        );
        const judged = stage
          .all('AWS::CloudWatch::Alarm')
          .filter(([, alarm]) => alarm.Properties.MetricName !== undefined)
          .map(([id, { Properties }]) => {
            const dimensions = Object.fromEntries(
              ((Properties.Dimensions ?? []) as { Name: string; Value: unknown }[]).map(({ Name, Value }) => [
                Name,
                typeof Value === 'string' ? Value : refMarker(String((Value as { Ref: string }).Ref)),
              ]),
            );
            const key = metricKey({
              namespace: String(Properties.Namespace),
              metricName: String(Properties.MetricName),
              dimensions,
            });
            const stat = String(Properties.Statistic ?? Properties.ExtendedStatistic);
            return { id, shown: `${key} ${stat} ${String(Properties.Period)}` };
          });
        expect(judged.length).toBeGreaterThan(10);
        expect(judged.filter(({ shown: row }) => !drawn.has(row)).map(({ id }) => id)).toEqual([]);
        // The table's throttle alarm adds up its events: the graph draws that very expression.
        const [, throttles] = defined(
          stage.all('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith('AlarmsDynamoDbThrottles')),
          'DynamoDbThrottles',
        );
        const expression = (throttles.Properties.Metrics as { Expression?: string }[]).find(
          (query) => query.Expression,
        )?.Expression;
        const expressions = body.widgets.flatMap((widget) =>
          rowsOf(widget).flatMap((row) => (row.kind === 'expression' ? [row.expression] : [])),
        );
        expect(expressions).toContain(expression);
      });
    });

    describe('the range check itself', () => {
      const budget = defined(
        body.widgets.find((widget) => widget.properties.view === 'singleValue'),
        'a budget widget',
      );
      test("fails a widget without a range of its own: it reads the dashboard's", () => {
        const { start: _start, ...rest } = budget.properties;
        expect(secondsRead({ ...budget, properties: rest }, body)).toBe(rangeSeconds(String(body.start)));
      });
      test('fails a widget whose number is its last period, shorter than its range', () => {
        const hourly: Properties = {
          ...budget.properties,
          metrics: [['AWS/Lambda', 'Errors', { period: 3600 }]],
        };
        const { setPeriodToTimeRange: _whole, ...lastPeriod } = hourly;
        expect(secondsRead({ ...budget, properties: hourly }, body)).toBe(DAYS_28);
        expect(secondsRead({ ...budget, properties: lastPeriod }, body)).toBe(3600);
      });
      test('reads ISO 8601 durations', () => {
        expect([
          rangeSeconds('-P28D'),
          rangeSeconds('-PT3H'),
          rangeSeconds('-P4W'),
          rangeSeconds('-PT90M'),
        ]).toEqual([DAYS_28, 3 * 3600, DAYS_28, 5400]);
        expect(() => rangeSeconds('2026-01-01T00:00:00Z')).toThrow();
      });
    });

    describe("init duration, from the platform.report line of each function's JSON log", () => {
      test.each(Object.entries(FUNCTIONS))('%s', (functionName, functionId) => {
        const filters = stage
          .all('AWS::Logs::MetricFilter')
          .filter(
            ([, filter]) =>
              JSON.stringify(filter.Properties.LogGroupName) ===
              JSON.stringify(ref(logGroupOf(stage, functionId))),
          );
        expect(filters).toHaveLength(1);
        const [[, filter] = []] = filters;
        const { FilterPattern: pattern, MetricTransformations } = defined(filter, 'filter').Properties;
        expect(pattern).toContain('$.type = "platform.report"');
        expect(pattern).toContain('$.record.metrics.initDurationMs');
        expect(MetricTransformations).toEqual([
          {
            MetricNamespace: stageMetrics,
            MetricName: `${functionName}InitDuration`,
            MetricValue: '$.record.metrics.initDurationMs',
            Unit: 'Milliseconds',
          },
        ]);
        // Lambda writes platform.report in the JSON format, at the system log level INFO.
        const logging = stage.resource(functionId).Properties.LoggingConfig as Properties;
        expect(logging.LogFormat).toBe('JSON');
        expect([undefined, 'INFO', 'DEBUG']).toContain(logging.SystemLogLevel);
      });

      test('one filter for each function', () => {
        const initFilters = stage
          .all('AWS::Logs::MetricFilter')
          .filter(([, filter]) => JSON.stringify(filter.Properties).includes('initDurationMs'));
        expect(initFilters).toHaveLength(FUNCTION_IDS.length);
      });
    });
  },
);
