// Metrics that only the stage's access log (lib/api/access-log-format.ts) can give, through metric
// filters: the answers that blame the authorizer, and each route's 5xx without them, so that an
// authorizer incident is not counted against the route function being rolled out.
import type { Duration } from 'aws-cdk-lib';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** API Gateway's answers that blame the authorizer (503 and 500), by the log's `errorType`. */
const AUTHORIZER_ERROR_TYPES = ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'];

export function addAccessLogMetrics(scope: Construct, accessLogs: ILogGroup, apiName: string) {
  // A namespace per stage: a metric filter's dimensions can only be fields of the log line.
  const metricNamespace = `PetStore/${apiName}`;
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
    dimensions: { Method: '$.method', Resource: '$.resourcePath' },
  });
  return {
    /** Requests API Gateway answered 503 or 500 because it could not use the authorizer. */
    authorizerFailures: (period: Duration) => authorizerFailures.metric({ period, statistic: 'Sum' }),
    /** 5xx answers of one method, but for those that blame the authorizer. */
    routeServerErrors: (method: { httpMethod: string; resource: string }, period: Duration) =>
      routeServerErrors.metric({
        period,
        statistic: 'Sum',
        dimensionsMap: { Method: method.httpMethod, Resource: method.resource },
      }),
  };
}
