// Metrics that only the stage's access log (lib/api/access-log-format.ts) can give, through metric
// filters: the answers that blame the authorizer, each route's 5xx without them (so that an authorizer
// incident is not counted against the route function being rolled out), and each route's 429s, which
// API Gateway counts among its 4XXError only.
import type { Duration } from 'aws-cdk-lib';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { ApiMethodDimensions } from '#lib/api/gateway-metrics.ts';

/** API Gateway's answers that blame the authorizer (503 and 500), by the log's `errorType`. */
const AUTHORIZER_ERROR_TYPES = ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'];

/** A namespace per stage: a metric filter's dimensions can only be fields of the log line. */
export const stageMetricsNamespace = (apiName: string) => `PetStore/${apiName}`;

export function addAccessLogMetrics(scope: Construct, accessLogs: ILogGroup, apiName: string) {
  const metricNamespace = stageMetricsNamespace(apiName);
  const byMethod = { Method: '$.method', Resource: '$.resourcePath' };
  const authorizerFailures = new MetricFilter(scope, 'AuthorizerFailuresFilter', {
    logGroup: accessLogs,
    filterPattern: FilterPattern.any(
      ...AUTHORIZER_ERROR_TYPES.map((type) => FilterPattern.stringValue('$.errorType', '=', type)),
    ),
    metricNamespace,
    metricName: 'AuthorizerFailures',
    metricValue: '1',
  });
  const routeServerErrors = new MetricFilter(scope, 'RouteServerErrorsFilter', {
    logGroup: accessLogs,
    filterPattern: FilterPattern.all(
      FilterPattern.stringValue('$.status', '=', '5*'),
      ...AUTHORIZER_ERROR_TYPES.map((type) => FilterPattern.stringValue('$.errorType', '!=', type)),
    ),
    metricNamespace,
    metricName: 'RouteServerErrors',
    metricValue: '1',
    dimensions: byMethod,
  });
  const throttled = new MetricFilter(scope, 'ThrottledRequestsFilter', {
    logGroup: accessLogs,
    filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
    metricNamespace,
    metricName: 'ThrottledRequests',
    metricValue: '1',
    dimensions: byMethod,
  });
  const ofMethod = (filter: MetricFilter, method: ApiMethodDimensions, period: Duration) =>
    filter.metric({
      period,
      statistic: 'Sum',
      dimensionsMap: { Method: method.httpMethod, Resource: method.resource },
    });
  return {
    /** Requests API Gateway answered 503 or 500 because it could not use the authorizer. */
    authorizerFailures: (period: Duration) => authorizerFailures.metric({ period, statistic: 'Sum' }),
    /** 5xx answers of one method, but for those that blame the authorizer. */
    routeServerErrors: (method: ApiMethodDimensions, period: Duration) =>
      ofMethod(routeServerErrors, method, period),
    /** 429 answers of one method: the stage's, a key's or the web ACL's limits. */
    throttledRequests: (method: ApiMethodDimensions, period: Duration) => ofMethod(throttled, method, period),
  };
}

export type AccessLogMetrics = ReturnType<typeof addAccessLogMetrics>;
