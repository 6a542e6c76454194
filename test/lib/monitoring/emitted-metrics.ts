// What a stage's dashboard may name: every metric the stack and its functions emit, each with its source
// (a metric filter of the template, the functions' EMF documents, an AWS service's own list), and a
// reader of the synthesized DashboardBody, so that a widget naming a metric nothing emits, which
// CloudWatch would draw as an empty graph without a word, fails a test instead.
import type { Context } from 'aws-lambda';
import { LAMBDA_VARIABLES } from '#functions/manifests.ts';
import { EMITTED_METRICS, createObservability } from '#shared/observability.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { FUNCTION_IDS, methodsByPath } from '#test/lib/templates.ts';

/** A token of the template in the body, as a string naming it: {{Ref:TableCD117FA1}}. */
export const refMarker = (logicalId: string) => `{{Ref:${logicalId}}}`;
/** {{GetAtt:AlarmsApi5xxFE885FB1.Arn}} */
export const getAttMarker = (logicalId: string, attribute: string) => `{{GetAtt:${logicalId}.${attribute}}}`;

function markerOf(token: unknown): string {
  const { Ref: ref, 'Fn::GetAtt': getAtt, ...others } = token as { Ref?: unknown; 'Fn::GetAtt'?: unknown };
  if (Object.keys(others).length === 0) {
    if (typeof ref === 'string' && getAtt === undefined) return refMarker(ref);
    const [logicalId, attribute, ...rest] = Array.isArray(getAtt) ? (getAtt as unknown[]) : [];
    if (ref === undefined && typeof logicalId === 'string' && typeof attribute === 'string' && !rest.length)
      return getAttMarker(logicalId, attribute);
  }
  throw new Error(`A token in the DashboardBody that the checks cannot name: ${JSON.stringify(token)}`);
}

export type Widget = { type: string; properties: Properties };
export type DashboardBody = { widgets: Widget[] } & Properties;

/** The stage's one dashboard: its name and its body, each token replaced by its marker. */
export function dashboardOf(stage: SynthesizedStage): { name: unknown; body: DashboardBody } {
  const [, dashboard] = stage.only('AWS::CloudWatch::Dashboard');
  const { DashboardName: name, DashboardBody: body } = dashboard.Properties;
  if (typeof body === 'string') return { name, body: JSON.parse(body) as DashboardBody };
  const join = (body as { 'Fn::Join'?: [unknown, unknown[]] })['Fn::Join'];
  if (!join || join[0] !== '')
    throw new Error(`A DashboardBody that is no Fn::Join: ${JSON.stringify(body)}`);
  const text = join[1].map((part) => (typeof part === 'string' ? part : markerOf(part))).join('');
  return { name, body: JSON.parse(text) as DashboardBody };
}

export const titleOf = (widget: Widget) => String(widget.properties.title ?? `(${widget.type} widget)`);

type RowOptions = {
  id?: unknown;
  stat?: unknown;
  period?: unknown;
  label?: unknown;
  visible?: unknown;
  expression?: unknown;
};
export type MetricRow = {
  kind: 'metric';
  namespace: string;
  metricName: string;
  dimensions: Record<string, string>;
  options: RowOptions;
};
type ExpressionRow = { kind: 'expression'; expression: string; options: RowOptions };
export type Row = MetricRow | ExpressionRow;

/**
 * One row of a widget's `metrics` (CloudWatch's "Dashboard Body Structure and Syntax", the format of
 * each metric in the array): `[namespace, metricName, dimName, dimValue, ..., {options}]` or
 * `[{expression, ...}]`. Any other shape, the '.' and '...' shorthands included, throws: a row this
 * reader skipped would be a row no check looks at.
 */
export function readRow(row: unknown): Row {
  const unreadable = (why: string) =>
    new Error(`A metric row the checks cannot read (${why}): ${JSON.stringify(row)}`);
  if (!Array.isArray(row) || row.length === 0) throw unreadable('not a non-empty array');
  const last: unknown = row.at(-1);
  const hasOptions = typeof last === 'object' && last !== null && !Array.isArray(last);
  const options = (hasOptions ? last : {}) as RowOptions;
  const parts: unknown[] = hasOptions ? row.slice(0, -1) : row;
  if (parts.length === 0) {
    if (typeof options.expression !== 'string') throw unreadable('neither a metric nor an expression');
    return { kind: 'expression', expression: options.expression, options };
  }
  if (options.expression !== undefined) throw unreadable('a metric and an expression in one row');
  const strings = parts.filter((part): part is string => typeof part === 'string');
  if (strings.length !== parts.length) throw unreadable('a part that is no string');
  if (strings.some((part) => part === '.' || part === '...')) throw unreadable('shorthand');
  if (strings.length < 2 || strings.length % 2 !== 0) throw unreadable('no namespace, name and pairs');
  const [namespace = '', metricName = '', ...pairs] = strings;
  const dimensions: Record<string, string> = {};
  for (let index = 0; index < pairs.length; index += 2) {
    const name = defined(pairs[index], 'dimension name');
    if (name in dimensions) throw unreadable(`dimension ${name} twice`);
    dimensions[name] = defined(pairs[index + 1], 'dimension value');
  }
  return { kind: 'metric', namespace, metricName, dimensions, options };
}

export function rowsOf(widget: Widget): Row[] {
  const { metrics } = widget.properties;
  if (metrics === undefined) return [];
  if (!Array.isArray(metrics)) throw new Error(`${titleOf(widget)}: metrics is no array`);
  return metrics.map(readRow);
}

/** The statistic CloudWatch draws a row with: its own, else its widget's, else Average. */
export const statOf = (row: Row, widget: Widget) =>
  String(row.options.stat ?? widget.properties.stat ?? 'Average');

export type EmittedMetric = {
  namespace: string;
  metricName: string;
  dimensions: Record<string, string>;
  /** Where it comes from: a resource of the template, a module of the project, an AWS page. */
  source: string;
};
type MetricIdentity = Pick<EmittedMetric, 'namespace' | 'metricName' | 'dimensions'>;

/** A metric's identity in CloudWatch: namespace, name and dimensions, in any order. */
export const metricKey = ({ namespace, metricName, dimensions }: MetricIdentity) =>
  JSON.stringify([namespace, metricName, Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b))]);

export const describeMetric = ({ namespace, metricName, dimensions }: MetricIdentity) =>
  `${namespace} ${metricName} {${Object.entries(dimensions)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ')}}`;

/** Each widget's metric rows that name no metric of `emitted`, as "<widget title>: <metric>". */
export function unemittedMetrics(body: DashboardBody, emitted: EmittedMetric[]): string[] {
  const known = new Set(emitted.map(metricKey));
  return body.widgets.flatMap((widget) =>
    rowsOf(widget).flatMap((row) =>
      row.kind === 'metric' && !known.has(metricKey(row))
        ? [`${titleOf(widget)}: ${describeMetric(row)}`]
        : [],
    ),
  );
}

/**
 * The ids a metric math expression reads: its names that start with a lower-case letter (the functions,
 * FILL, METRICS..., are upper case). A SEARCH's quoted text would hold other words: it throws.
 */
export function expressionIds(expression: string): string[] {
  if (/["'{}]/.test(expression)) throw new Error(`An expression the checks cannot read: ${expression}`);
  return [...expression.matchAll(/(?<![\w.])[a-z]\w*/g)].map(([id]) => id);
}

// The AWS services' metrics the dashboard may draw, as each service's documentation lists them.

/** https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-metrics-and-dimensions.html */
const API_GATEWAY = {
  namespace: 'AWS/ApiGateway',
  metrics: ['Count', '4XXError', '5XXError', 'Latency', 'IntegrationLatency'],
  /** Only where the stage caches the method. */
  cacheMetrics: ['CacheHitCount', 'CacheMissCount'],
  source:
    'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-metrics-and-dimensions.html',
};
/**
 * https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html; ConcurrentExecutions, for
 * every function: https://docs.aws.amazon.com/lambda/latest/dg/monitoring-concurrency.html
 */
const LAMBDA = {
  namespace: 'AWS/Lambda',
  metrics: ['Invocations', 'Errors', 'Throttles', 'ConcurrentExecutions', 'Duration'],
  source: 'https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html',
};
/** https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html */
const DYNAMODB = {
  namespace: 'AWS/DynamoDB',
  metrics: [
    'ConsumedReadCapacityUnits',
    'ConsumedWriteCapacityUnits',
    'ReadThrottleEvents',
    'WriteThrottleEvents',
  ],
  source: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html',
};
/** https://docs.aws.amazon.com/waf/latest/developerguide/waf-metrics.html */
const WAF = {
  namespace: 'AWS/WAFV2',
  metrics: ['BlockedRequests', 'AllowedRequests', 'CountedRequests'],
  source: 'https://docs.aws.amazon.com/waf/latest/developerguide/waf-metrics.html',
};
/**
 * CloudWatch Synthetics:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Synthetics_Canaries_metrics.html
 */
const SYNTHETICS = {
  namespace: 'CloudWatchSynthetics',
  metrics: ['SuccessPercent', 'Failed', 'Duration'],
  source:
    'https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Synthetics_Canaries_metrics.html',
};

/** A function's name and stage while the EMF documents are sampled, replaced by each function's. */
const SAMPLE_FUNCTION = 'sampled-function';
const SAMPLE_STAGE = 'sampled-stage';

/**
 * The functions' EMF documents, as shared/observability.ts writes them: a cold start, and each count of
 * EMITTED_METRICS once. Each metric with its dimensions' values as the documents carry them.
 */
function observabilityMetrics(): MetricIdentity[] {
  const lines: string[] = [];
  const { metrics, observeInvocations } = createObservability({
    metrics: { stage: SAMPLE_STAGE },
    write: (line) => void lines.push(line),
  });
  const { before, after } = observeInvocations();
  const context = { functionName: SAMPLE_FUNCTION, awsRequestId: 'sampled-request' } as Context;
  type Request = Parameters<NonNullable<typeof before>>[0];
  void before?.({ context, event: {} } as Request);
  for (const name of EMITTED_METRICS.counts) metrics.count(name);
  void after?.({ context, event: {} } as Request);
  return lines.flatMap((line) => {
    const document = JSON.parse(line) as Record<string, unknown> & {
      _aws?: {
        CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
      };
    };
    return (document._aws?.CloudWatchMetrics ?? []).flatMap(({ Namespace, Dimensions, Metrics }) =>
      Dimensions.flatMap((keys) =>
        Metrics.map(({ Name }) => ({
          namespace: Namespace,
          metricName: Name,
          dimensions: Object.fromEntries(keys.map((key) => [key, String(document[key])])),
        })),
      ),
    );
  });
}

/** The stage's methods whose answers its cache keeps: their HTTP method and resource path. */
export function cachedMethods(stage: SynthesizedStage): { httpMethod: string; path: string }[] {
  const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
  if (apiStage.Properties.CacheClusterEnabled !== true) return [];
  // A setting's ResourcePath is the path as a JSON pointer segment (/pets: /~1pets), or /* for all.
  const settings = ((apiStage.Properties.MethodSettings ?? []) as Properties[]).map((setting) => ({
    httpMethod: String(setting.HttpMethod),
    path:
      setting.ResourcePath === '/*'
        ? '*'
        : String(setting.ResourcePath).slice(1).replaceAll('~1', '/').replaceAll('~0', '~'),
    caching: setting.CachingEnabled === true,
  }));
  return methodsByPath(stage).filter(({ httpMethod, path }) => {
    // The most specific setting decides: the method's own path first, then its own HTTP method.
    const specificity = (setting: (typeof settings)[number]) =>
      Number(setting.path === path) * 2 + Number(setting.httpMethod === httpMethod);
    const applying = settings
      .filter(
        (setting) => [path, '*'].includes(setting.path) && [httpMethod, '*'].includes(setting.httpMethod),
      )
      .sort((a, b) => specificity(b) - specificity(a));
    return applying[0]?.caching === true;
  });
}

/** What the stage's functions, its metric filters and the AWS services under it emit. */
export function emittedMetrics(stage: SynthesizedStage): EmittedMetric[] {
  const emitted: EmittedMetric[] = [];
  const add = (
    source: string,
    namespace: string,
    metricNames: string[],
    dimensionSets: Record<string, string>[],
  ) => {
    for (const metricName of metricNames)
      for (const dimensions of dimensionSets) emitted.push({ namespace, metricName, dimensions, source });
  };
  const methods = methodsByPath(stage);

  // The metric filters: a dimension takes its value from the log line; Method and Resource are the
  // access log's method and resourcePath, which name a method of the API.
  for (const [logicalId, filter] of stage.all('AWS::Logs::MetricFilter'))
    for (const transformation of filter.Properties.MetricTransformations as Properties[]) {
      const keys = ((transformation.Dimensions ?? []) as { Key: string }[]).map(({ Key }) => Key).sort();
      let dimensionSets: Record<string, string>[];
      if (keys.length === 0) dimensionSets = [{}];
      else if (keys.join() === 'Method,Resource')
        dimensionSets = methods.map(({ httpMethod, path }) => ({ Method: httpMethod, Resource: path }));
      else
        throw new Error(`${logicalId}: the checks cannot list the values of dimensions ${keys.join(', ')}`);
      add(
        `AWS::Logs::MetricFilter ${logicalId}`,
        String(transformation.MetricNamespace),
        [String(transformation.MetricName)],
        dimensionSets,
      );
    }

  // The functions' own metrics (EMF), for each function built on shared/observability.ts, with the
  // stage its environment names. Lambda sends an EMF line (level INFO, having none) to the log only if
  // the function's log level lets INFO through.
  const functionsLoggingInfo = FUNCTION_IDS.flatMap((functionId) => {
    const fn = stage.resource(functionId);
    if (fn.Type !== 'AWS::Lambda::Function') throw new Error(`${functionId} is no Lambda function`);
    const level = (fn.Properties.LoggingConfig as Properties | undefined)?.ApplicationLogLevel;
    const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    const functionStage = variables?.[LAMBDA_VARIABLES.stage];
    const logsInfo = level === undefined || ['TRACE', 'DEBUG', 'INFO'].includes(String(level));
    return logsInfo ? [{ functionId, stage: String(functionStage) }] : [];
  });
  for (const metric of observabilityMetrics()) {
    const { function_name: functionName, stage: sampledStage, ...dimensions } = metric.dimensions;
    if (sampledStage !== SAMPLE_STAGE) throw new Error(`${metric.metricName} carries no stage`);
    const dimensionSets = functionsLoggingInfo.map(({ functionId, stage: functionStage }) => ({
      ...dimensions,
      stage: functionStage,
      ...(functionName !== undefined && { function_name: refMarker(functionId) }),
    }));
    const distinct = [...new Map(dimensionSets.map((set) => [JSON.stringify(set), set])).values()];
    add('shared/observability.ts (EMF)', metric.namespace, [metric.metricName], distinct);
  }

  // API Gateway: the stage's, and each method's (the stage's detailed metrics).
  const [, restApi] = stage.only('AWS::ApiGateway::RestApi');
  const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
  const stageDimensions = {
    ApiName: String(restApi.Properties.Name),
    Stage: String(apiStage.Properties.StageName),
  };
  const ofMethod = ({ httpMethod, path }: { httpMethod: string; path: string }) => ({
    ...stageDimensions,
    Method: httpMethod,
    Resource: path,
  });
  add(API_GATEWAY.source, API_GATEWAY.namespace, API_GATEWAY.metrics, [
    stageDimensions,
    ...methods.map(ofMethod),
  ]);
  add(
    API_GATEWAY.source,
    API_GATEWAY.namespace,
    API_GATEWAY.cacheMetrics,
    cachedMethods(stage).map(ofMethod),
  );

  // Lambda: each function of the template, by the name its Ref gives.
  const functionSets = stage.all('AWS::Lambda::Function').map(([id]) => ({ FunctionName: refMarker(id) }));
  add(LAMBDA.source, LAMBDA.namespace, LAMBDA.metrics, functionSets);

  // DynamoDB: each table, and each of its global secondary indexes.
  for (const [tableId, table] of stage.all('AWS::DynamoDB::Table')) {
    const indexes = ((table.Properties.GlobalSecondaryIndexes ?? []) as { IndexName: string }[]).map(
      ({ IndexName }) => ({ TableName: refMarker(tableId), GlobalSecondaryIndexName: IndexName }),
    );
    add(DYNAMODB.source, DYNAMODB.namespace, DYNAMODB.metrics, [
      { TableName: refMarker(tableId) },
      ...indexes,
    ]);
  }

  // WAF: each rule of each web ACL, by the metric names of their visibility configs, in the stack's region.
  for (const [, webAcl] of stage.all('AWS::WAFv2::WebACL')) {
    const metricNameOf = (config: unknown) => String((config as { MetricName: string }).MetricName);
    const webAclName = metricNameOf(webAcl.Properties.VisibilityConfig);
    const rules = (webAcl.Properties.Rules ?? []) as { VisibilityConfig: unknown }[];
    add(
      WAF.source,
      WAF.namespace,
      WAF.metrics,
      rules.map(({ VisibilityConfig }) => ({
        WebACL: webAclName,
        Region: stage.region,
        Rule: metricNameOf(VisibilityConfig),
      })),
    );
  }

  // Synthetics: each canary, by its name, literal or through its Ref (which gives the name).
  for (const [canaryId, canary] of stage.all('AWS::Synthetics::Canary'))
    add(SYNTHETICS.source, SYNTHETICS.namespace, SYNTHETICS.metrics, [
      { CanaryName: String(canary.Properties.Name) },
      { CanaryName: refMarker(canaryId) },
    ]);
  return emitted;
}
