// The saved Logs Insights queries of each stage (lib/monitoring/log-queries.ts), read from the template:
// their names, log groups and parameters, and every field they name checked against what the logs
// hold (the access log format's keys, the functions' log entries, Lambda's platform records), so that a
// renamed field does not leave a query that silently finds nothing.
import type { Context } from 'aws-lambda';
import { describe, expect, test } from '@jest/globals';
import { ACCESS_LOG_FORMAT } from '#lib/api/access-log-format.ts';
import { QUERY_PARAMETERS, placeholder } from '#lib/monitoring/log-queries.ts';
import { createObservability } from '#shared/observability.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import { FUNCTION_IDS, logGroupOf, ref } from '#test/lib/templates.ts';

/** The access log's keys, each with the $context variable it holds. */
const ACCESS_LOG_FIELDS = JSON.parse(ACCESS_LOG_FORMAT.toString()) as Record<string, string>;

/** The fields of a function's log entry, as shared/observability.ts writes one during an invocation. */
function observabilityFields(): string[] {
  const lines: string[] = [];
  const { logger, observeInvocations } = createObservability({
    metrics: false,
    write: (line) => void lines.push(line),
  });
  const { before, after } = observeInvocations();
  const context = { functionName: 'sampled-function', awsRequestId: 'sampled-request' } as Context;
  const event = {
    requestContext: { requestId: 'sampled-api-request', extendedRequestId: 'sampled-extended' },
  };
  type Request = Parameters<NonNullable<typeof before>>[0];
  const traceId = process.env._X_AMZN_TRACE_ID;
  process.env._X_AMZN_TRACE_ID = 'Root=sampled';
  try {
    void before?.({ context, event } as Request);
    logger.error('sampled');
    void after?.({ context, event } as Request);
  } finally {
    if (traceId === undefined) delete process.env._X_AMZN_TRACE_ID;
    else process.env._X_AMZN_TRACE_ID = traceId;
  }
  const entry = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => 'level' in line);
  if (!entry) throw new Error('shared/observability.ts wrote no log entry');
  return Object.keys(entry);
}
const LOG_ENTRY_FIELDS = observabilityFields();

/**
 * What a platform line of a function's JSON log holds (type, record.requestId, record.metrics...):
 * https://docs.aws.amazon.com/lambda/latest/dg/telemetry-schema-reference.html#platform-report
 */
const PLATFORM_RECORD_FIELDS = [
  'time',
  'type',
  'record.requestId',
  'record.status',
  'record.metrics.initDurationMs',
];

/**
 * The fields that hold a request id no client can set: API Gateway's extendedRequestId, the
 * integration's or the authorizer's; a function's. API Gateway's requestId is the client's to set
 * (x-amzn-RequestId), so a query that matched on it could be led to another request's lines.
 */
const CLIENT_SET_IDS = ['requestId', 'api_request_id'];
const REQUEST_ID_FIELDS = [
  ...Object.keys(ACCESS_LOG_FIELDS).filter((key) =>
    /^\$context\.(extendedRequestId|integration\.requestId|authorizer\.requestId)$/.test(
      String(ACCESS_LOG_FIELDS[key]),
    ),
  ),
  ...LOG_ENTRY_FIELDS.filter((field) => field.endsWith('_request_id') && !CLIENT_SET_IDS.includes(field)),
  'record.requestId',
];

/** A field a query may name: of the access log, of a log entry, of a platform line, or Logs' @-fields. */
const isKnownField = (field: string) =>
  field.startsWith('@') ||
  field in ACCESS_LOG_FIELDS ||
  LOG_ENTRY_FIELDS.includes(field) ||
  PLATFORM_RECORD_FIELDS.includes(field);

const COMMANDS = ['fields', 'filter', 'stats', 'sort', 'limit', 'display', 'parse', 'dedup'];
const KEYWORDS = ['and', 'or', 'not', 'as', 'by', 'asc', 'desc', 'like', 'in'];

/** The commands of a query's text: `fields ...`, `filter ...`, one per `|`. */
const commandsOf = (query: string) =>
  query.split(/\n?\s*\|\s*/).map((command) => {
    const [word = '', ...rest] = command.trim().split(/\s+/);
    return { command: word, text: rest.join(' ') };
  });

/**
 * The fields a query names: every name outside its strings, but for commands, keywords, functions
 * (a name before `(`) and the names its stats define (`as requests`).
 */
function fieldsOf(query: string): string[] {
  const commands = commandsOf(query);
  const unknownCommands = commands
    .map(({ command }) => command)
    .filter((command) => !COMMANDS.includes(command));
  if (unknownCommands.length > 0)
    throw new Error(`Commands the checks cannot read: ${unknownCommands.join(', ')}`);
  const text = commands
    .map((command) => command.text)
    .join(' ')
    .replace(/"[^"]*"/g, '""');
  const aliases = [...text.matchAll(/\bas\s+(\w+)/g)].map(([, alias]) => alias);
  const names = [...text.matchAll(/(?<![\w.@])(@?[A-Za-z_][\w.]*)(\s*\()?/g)]
    .filter(([, , call]) => !call)
    .map(([, field = '']) => field);
  return [...new Set(names.filter((field) => !KEYWORDS.includes(field) && !aliases.includes(field)))];
}

describe.each([synthesized.staging, synthesized.production])(
  'the $name log queries',
  (stage: SynthesizedStage) => {
    const { name } = stage;
    const queries = new Map(
      stage.all('AWS::Logs::QueryDefinition').map(([, query]) => [
        String(query.Properties.Name),
        {
          text: String(query.Properties.QueryString),
          logGroups: query.Properties.LogGroupNames as unknown[],
          parameters: (query.Properties.Parameters ?? []) as { Name: string; Description?: string }[],
        },
      ]),
    );
    const query = (id: string) => {
      const found = queries.get(`petstore-${name}/${id}`);
      if (!found) throw new Error(`no query ${id}`);
      return found;
    };
    const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
    const accessLog = apiStage.Properties.AccessLogSetting as { DestinationArn: unknown; Format: string };
    // The access log group: the one resource the stage's destination ARN refers to (AWS::AccountId aside).
    const destinationRefs = [...JSON.stringify(accessLog.DestinationArn).matchAll(/\{"Ref":"(\w+)"\}/g)];
    const accessLogsId = defined(destinationRefs[0]?.[1], 'the access log group');
    const functionLogs = FUNCTION_IDS.map((functionId) => ref(logGroupOf(stage, functionId)));

    test('five, under petstore-<stage>/ in the console', () => {
      expect([...queries.keys()].sort()).toEqual(
        ['one-request', 'recent-5xx', 'errors-by-code-and-route', 'one-key', 'slowest-requests']
          .map((id) => `petstore-${name}/${id}`)
          .sort(),
      );
    });

    test('each {{parameter}} a text names is declared, with what to give it, and none is unused', () => {
      for (const [queryName, { text, parameters }] of queries) {
        const named = [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map(([, parameter]) => parameter))];
        expect({ queryName, declared: parameters.map(({ Name }) => Name).sort() }).toEqual({
          queryName,
          declared: named.sort(),
        });
        for (const { Name, Description } of parameters)
          expect(Description).toBe(QUERY_PARAMETERS[Name as keyof typeof QUERY_PARAMETERS]);
      }
      expect(query('one-request').parameters.map(({ Name }) => Name)).toEqual(['requestId']);
    });

    test("the fields they read are the stage's access log format", () => {
      expect(destinationRefs).toHaveLength(1);
      expect(accessLog.Format).toBe(ACCESS_LOG_FORMAT.toString());
      expect(stage.resource(accessLogsId).Type).toBe('AWS::Logs::LogGroup');
    });

    test('every field any query names is one the logs hold', () => {
      const unknown = [...queries].flatMap(([queryName, { text }]) =>
        fieldsOf(text)
          .filter((field) => !isKnownField(field))
          .map((field) => `${queryName}: ${field}`),
      );
      expect(unknown).toEqual([]);
      // The reader finds fields at all: those of the slowest requests, for one.
      expect(fieldsOf(query('slowest-requests').text)).toEqual(
        expect.arrayContaining(['responseLatencyMs', 'principalId']),
      );
      expect(
        fieldsOf('fields nosuchField | sort @timestamp desc').filter((field) => !isKnownField(field)),
      ).toEqual(['nosuchField']);
    });

    test('one-request: the access log and the four functions, by every id no client can set', () => {
      const { text, logGroups } = query('one-request');
      expect(logGroups).toHaveLength(1 + FUNCTION_IDS.length);
      expect(logGroups).toEqual(expect.arrayContaining([ref(accessLogsId), ...functionLogs]));
      // The access log's three ids, the log entries' two and the platform lines' one.
      expect(REQUEST_ID_FIELDS).toEqual(
        expect.arrayContaining([
          'extendedRequestId',
          'functionRequestId',
          'authorizerRequestId',
          'function_request_id',
          'api_extended_request_id',
          'record.requestId',
        ]),
      );
      const filters = commandsOf(text).filter(({ command }) => command === 'filter');
      expect(filters).toHaveLength(1);
      const compared = [...defined(filters[0], 'the filter').text.matchAll(/([\w.@]+) = "([^"]*)"/g)].map(
        ([, field = '', value]) => ({ field, value }),
      );
      expect(compared.map(({ field }) => field).sort()).toEqual([...REQUEST_ID_FIELDS].sort());
      for (const field of CLIENT_SET_IDS)
        expect(LOG_ENTRY_FIELDS.includes(field) || field in ACCESS_LOG_FIELDS).toBe(true);
      for (const { field, value } of compared) {
        expect(isKnownField(field)).toBe(true);
        expect(value).toBe(placeholder('requestId'));
      }
      expect(text).toMatch(/\| sort @timestamp asc$/);
    });

    test('recent-5xx: the newest 5xx answers of the access log, with each id one-request takes', () => {
      const { text, logGroups } = query('recent-5xx');
      expect(logGroups).toEqual([ref(accessLogsId)]);
      expect(text).toContain('filter status >= 500');
      expect(text).toContain('| sort @timestamp desc');
      const accessLogIds = REQUEST_ID_FIELDS.filter((field) => field in ACCESS_LOG_FIELDS);
      expect(accessLogIds).toHaveLength(3);
      expect(fieldsOf(text)).toEqual(expect.arrayContaining([...accessLogIds, 'status', 'errorType']));
    });

    test('errors-by-code-and-route: the access log, 4xx and 5xx by status, error type and method', () => {
      const { text, logGroups } = query('errors-by-code-and-route');
      expect(logGroups).toEqual([ref(accessLogsId)]);
      expect(text).toContain('filter status >= 400');
      expect(text).toMatch(/by status, errorType, method, resourcePath/);
    });

    test("one-key: the access log's lines of one authorizer principal, the key's id", () => {
      const { text, logGroups } = query('one-key');
      expect(logGroups).toEqual([ref(accessLogsId)]);
      expect(text).toContain(`filter principalId = "${placeholder('keyId')}"`);
      expect(ACCESS_LOG_FIELDS.principalId).toBe('$context.authorizer.principalId');
    });

    test('slowest-requests: the access log, sorted on its response latency', () => {
      const { text, logGroups } = query('slowest-requests');
      expect(logGroups).toEqual([ref(accessLogsId)]);
      expect(text).toContain('| sort responseLatencyMs desc');
      expect(ACCESS_LOG_FIELDS.responseLatencyMs).toBe('$context.responseLatency');
    });
  },
);
