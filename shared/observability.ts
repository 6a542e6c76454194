// Structured JSON logs and CloudWatch metrics in embedded metric format (EMF): one JSON line each on
// stdout, which Lambda sends to the function's log group, where CloudWatch extracts the metrics. Logs
// carry the Lambda request id; API keys and request bodies are never logged. Written here: Powertools'
// Logger and Metrics would cost bundle size and cold start time (docs/performance.md).
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

/**
 * The CloudWatch metrics the functions write, as the dashboard names them: each count by `service`
 * and `stage`, and `ColdStart` by those and `function_name` (the Lambda function's name). The stage
 * keeps two stages of one account and region apart.
 */
export const EMITTED_METRICS = {
  namespace: 'PetStore',
  service: 'petstore',
  coldStart: 'ColdStart',
  /** Pets created (replays not counted), and requests the authorizer refused. */
  counts: ['PetsCreated', 'AuthFailures'],
} as const;
type CountedMetric = (typeof EMITTED_METRICS.counts)[number];
const { namespace: METRICS_NAMESPACE, service: SERVICE_NAME } = EMITTED_METRICS;

const LOG_LEVELS = { WARN: 1, ERROR: 2, OFF: 3 } as const;
export type LogLevel = keyof typeof LOG_LEVELS;

type ObservabilityOptions = {
  /** The least severe entry written. */
  logLevel?: LogLevel;
  /** The stage the metrics are of; false where no CloudWatch reads the output. */
  metrics: { stage: string } | false;
  write?: (line: string) => void;
};

/** What a log entry may carry besides its message; an Error is written with its stack. */
type LogFields = Record<string, unknown>;

/** Errors as JSON (JSON.stringify would give `{}`), their causes too. */
function loggable(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const { name, message, stack, cause } = value;
  return { name, message, stack, ...(cause !== undefined && { cause: loggable(cause) }) };
}

export function createObservability({
  logLevel = 'WARN',
  metrics: metricsOf,
  write = (line: string) => void process.stdout.write(line),
}: ObservabilityOptions) {
  let invocation: Context | undefined;
  /**
   * API Gateway's ids of the request, which its access log line carries too: its requestId (the
   * answer's x-amzn-RequestId, which a client may set) and its extendedRequestId (x-amz-apigw-id), which
   * API Gateway alone makes, so that a query matches on it.
   */
  let apiRequestIds: { requestId?: string; extendedRequestId?: string } = {};
  let coldStart = true;
  const counts = new Map<string, number>();

  function log(level: Exclude<LogLevel, 'OFF'>, message: string, fields: LogFields = {}) {
    if (LOG_LEVELS[level] < LOG_LEVELS[logLevel]) return;
    const entry: LogFields = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: SERVICE_NAME,
      ...(invocation && {
        function_name: invocation.functionName,
        function_request_id: invocation.awsRequestId,
        api_request_id: apiRequestIds.requestId,
        api_extended_request_id: apiRequestIds.extendedRequestId,
        // Not configuration: Lambda sets it anew for each invocation when tracing is on.
        xray_trace_id: process.env._X_AMZN_TRACE_ID,
      }),
    };
    for (const [name, value] of Object.entries(fields)) entry[name] = loggable(value);
    write(`${JSON.stringify(entry)}\n`);
  }

  /** One EMF document: these counts, in the namespace, by service, stage and the extra dimensions. */
  function writeMetrics(values: Map<string, number>, extra: Record<string, string> = {}) {
    if (!metricsOf) return;
    const dimensions = { stage: metricsOf.stage, ...extra };
    const document = {
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [['service', ...Object.keys(dimensions)]],
            Metrics: [...values.keys()].map((name) => ({ Name: name, Unit: 'Count' })),
          },
        ],
      },
      service: SERVICE_NAME,
      ...dimensions,
      ...Object.fromEntries(values),
    };
    write(`${JSON.stringify(document)}\n`);
  }

  const logger = {
    warn: (message: string, fields?: LogFields) => log('WARN', message, fields),
    error: (message: string, fields?: LogFields) => log('ERROR', message, fields),
  };

  const metrics = {
    /** Adds one to a count of this invocation, written when it ends. */
    count(name: CountedMetric) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
    },
  };

  /**
   * Middy middleware: the invocation's context on its log entries, its counts written at its end.
   * One invocation at a time, as a Lambda instance runs them.
   */
  function observeInvocations(): MiddlewareObj {
    function start({ context, event }: { context: Context; event: unknown }) {
      invocation = context;
      // A route's proxy event has one; the authorizer's TOKEN event has none.
      apiRequestIds = (event as { requestContext?: typeof apiRequestIds } | undefined)?.requestContext ?? {};
    }
    function end() {
      if (coldStart)
        writeMetrics(new Map([[EMITTED_METRICS.coldStart, 1]]), {
          function_name: invocation?.functionName ?? '',
        });
      if (counts.size > 0) writeMetrics(counts);
      counts.clear();
      coldStart = false;
      invocation = undefined;
      apiRequestIds = {};
    }
    return { before: start, after: end, onError: end };
  }

  return { logger, metrics, observeInvocations };
}

export type Observability = ReturnType<typeof createObservability>;
export type Logger = Observability['logger'];
