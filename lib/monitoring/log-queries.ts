// Saved CloudWatch Logs Insights queries of a stage, under `petstore-<stage>/` in the console's list:
// the questions on-call asks of the logs. A query takes no parameters: the runbook says which
// placeholder to replace (docs/deployment.md#is-it-healthy).
import { QueryDefinition, QueryString } from 'aws-cdk-lib/aws-logs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';

/** What a saved query's text holds in place of the id an operator pastes. */
export const QUERY_PLACEHOLDERS = { requestId: 'REQUEST_ID', keyId: 'KEY_ID' } as const;

export type LogQueriesProps = {
  settings: StageSettings;
  /** One JSON line per request (lib/api/access-log-format.ts). */
  accessLogs: ILogGroup;
  /** The functions' JSON logs: their own lines and Lambda's platform lines. */
  functionLogs: ILogGroup[];
};

export function addLogQueries(scope: Construct, { settings, accessLogs, functionLogs }: LogQueriesProps) {
  const { requestId, keyId } = QUERY_PLACEHOLDERS;
  const query = (id: string, logGroups: ILogGroup[], queryString: QueryString) =>
    new QueryDefinition(scope, id, {
      queryDefinitionName: `petstore-${settings.name}/${id}`,
      logGroups,
      queryString,
    });
  return [
    // Either id a client or a log line gives: API Gateway's (x-amzn-RequestId) or a function's.
    query(
      'one-request',
      [accessLogs, ...functionLogs],
      new QueryString({
        fields: ['@timestamp', '@log', 'status', 'errorType', 'level', 'message', '@message'],
        filterStatements: [
          [
            `requestId = "${requestId}"`,
            `api_request_id = "${requestId}"`,
            `functionRequestId = "${requestId}"`,
            `authorizerRequestId = "${requestId}"`,
            `function_request_id = "${requestId}"`,
            `record.requestId = "${requestId}"`,
          ].join(' or '),
        ],
        sort: '@timestamp asc',
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
        filterStatements: [`principalId = "${keyId}"`],
        statsStatements: ['count(*) as requests by bin(5m), status'],
      }),
    ),
    query(
      'slowest-requests',
      [accessLogs],
      new QueryString({
        fields: [
          '@timestamp',
          'requestId',
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
