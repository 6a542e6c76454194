// Saved CloudWatch Logs Insights queries of a stage, under `petstore-<stage>/` in the console's list:
// the questions on-call asks of the logs. A query about one request or key takes its id as a query
// parameter, `{{name}}` in its text, which the console asks for when the query is run.
import { QueryDefinition, QueryString } from 'aws-cdk-lib/aws-logs';
import type { CfnQueryDefinition, ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';

/** Each query parameter, by name, with what the operator gives it. */
export const QUERY_PARAMETERS = {
  requestId: "A request id: the answer's x-amz-apigw-id, or any id of a request's log lines",
  keyId: 'An API key id, as npm run keys -- list prints it',
} as const;
type ParameterName = keyof typeof QUERY_PARAMETERS;

/** Where a query's text takes the parameter's value. */
export const placeholder = (name: ParameterName) => `{{${name}}}`;

export type LogQueriesProps = {
  settings: StageSettings;
  /** One JSON line per request (lib/api/access-log-format.ts). */
  accessLogs: ILogGroup;
  /** The functions' JSON logs: their own lines and Lambda's platform lines. */
  functionLogs: ILogGroup[];
};

export function addLogQueries(scope: Construct, { settings, accessLogs, functionLogs }: LogQueriesProps) {
  const query = (
    id: string,
    logGroups: ILogGroup[],
    queryString: QueryString,
    parameters: ParameterName[] = [],
  ) => {
    const definition = new QueryDefinition(scope, id, {
      queryDefinitionName: `petstore-${settings.name}/${id}`,
      logGroups,
      queryString,
    });
    if (parameters.length > 0)
      (definition.node.defaultChild as CfnQueryDefinition).parameters = parameters.map((name) => ({
        name,
        description: QUERY_PARAMETERS[name],
      }));
    return definition;
  };
  const requestId = placeholder('requestId');
  return [
    // Any id of the request: API Gateway's extendedRequestId (x-amz-apigw-id), not its requestId, which a
    // client may set; its function's, its authorizer's, or Lambda's platform lines'. The access log line
    // names the others: running it again with one of those finds the lines that carry only that one.
    query(
      'one-request',
      [accessLogs, ...functionLogs],
      new QueryString({
        fields: ['@timestamp', '@log', 'status', 'errorType', 'level', 'message', '@message'],
        filterStatements: [
          [
            `extendedRequestId = "${requestId}"`,
            `api_extended_request_id = "${requestId}"`,
            `functionRequestId = "${requestId}"`,
            `authorizerRequestId = "${requestId}"`,
            `function_request_id = "${requestId}"`,
            `record.requestId = "${requestId}"`,
          ].join(' or '),
        ],
        sort: '@timestamp asc',
      }),
      ['requestId'],
    ),
    // The newest 5xx answers, with every id one-request takes.
    query(
      'recent-5xx',
      [accessLogs],
      new QueryString({
        fields: [
          '@timestamp',
          'status',
          'errorType',
          'method',
          'resourcePath',
          'extendedRequestId',
          'functionRequestId',
          'authorizerRequestId',
        ],
        filterStatements: ['status >= 500'],
        sort: '@timestamp desc',
        limit: 100,
      }),
    ),
    // The access log's status, and API Gateway's own error type where it answered itself.
    query(
      'errors-by-code-and-route',
      [accessLogs],
      new QueryString({
        filterStatements: ['status >= 400'],
        statsStatements: ['count(*) as requests by status, errorType, method, resourcePath'],
        sort: 'requests desc',
      }),
    ),
    query(
      'one-key',
      [accessLogs],
      new QueryString({
        filterStatements: [`principalId = "${placeholder('keyId')}"`],
        statsStatements: ['count(*) as requests by bin(5m), status'],
      }),
      ['keyId'],
    ),
    query(
      'slowest-requests',
      [accessLogs],
      new QueryString({
        fields: [
          '@timestamp',
          'extendedRequestId',
          'method',
          'path',
          'status',
          'responseLatencyMs',
          'integrationLatencyMs',
          'principalId',
        ],
        sort: 'responseLatencyMs desc',
        limit: 50,
      }),
    ),
  ];
}
