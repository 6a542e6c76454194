// Structured JSON logs (Powertools) for every function; one logger per process.
import { Logger } from '@aws-lambda-powertools/logger';

export const SERVICE_NAME = 'petstore';

export const logger = new Logger({ serviceName: SERVICE_NAME });
