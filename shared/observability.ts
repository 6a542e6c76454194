// Structured JSON logs and CloudWatch metrics (Powertools, embedded metric format), one of each
// per process, built by its composition root. Logs carry the Lambda request id; API keys and
// request bodies are never logged.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

export const SERVICE_NAME = 'petstore';
/** The stack sets it as POWERTOOLS_METRICS_NAMESPACE too, so a namespace set there wins. */
export const METRICS_NAMESPACE = 'PetStore';

export type Observability = { logger: Logger; metrics: Metrics };

export function createObservability({ metricsNamespace = METRICS_NAMESPACE } = {}): Observability {
  const logger = new Logger({ serviceName: SERVICE_NAME });
  // Metrics warns on each invocation that adds no metric; for list and get that is the normal case.
  const metricsLogger = {
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    error: logger.error.bind(logger),
    warn: (message: string) =>
      message.startsWith('No application metrics') ? logger.debug(message) : logger.warn(message),
  };
  const metrics = new Metrics({
    serviceName: SERVICE_NAME,
    namespace: metricsNamespace,
    logger: metricsLogger,
  });
  return { logger, metrics };
}

export { MetricUnit } from '@aws-lambda-powertools/metrics';
