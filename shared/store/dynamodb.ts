// The one DynamoDB client of a process, shared by every adapter. Timeouts and retries are bounded
// so that a DynamoDB outage answers 503 well inside the Lambda timeout instead of hanging.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { requireEnv } from '#shared/env.ts';
import { StoreUnavailableError, isConditionFailure } from '#shared/store/errors.ts';
import { DYNAMODB_TIMEOUTS } from '#shared/timeouts.ts';

export const tableName = requireEnv('PETSTORE_TABLE_NAME');

export const documentClient = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    maxAttempts: DYNAMODB_TIMEOUTS.maxAttempts,
    requestHandler: {
      connectionTimeout: DYNAMODB_TIMEOUTS.connectionMs,
      requestTimeout: DYNAMODB_TIMEOUTS.requestMs,
    },
  }),
  {
    marshallOptions: { removeUndefinedValues: true },
    // Numbers come back as exact text-derived values: categoryId may exceed 2^53.
    unmarshallOptions: {
      wrapNumbers: (text) => (Number.isSafeInteger(Number(text)) ? Number(text) : BigInt(text)),
    },
  },
);

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);
const NETWORK =
  /\b(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|socket hang up)\b/;

type SdkError = { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };

/** True when DynamoDB could not be reached or kept throttling after the SDK's own retries. */
function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // Duck-typed, not instanceof: errors may come from another realm (the SDK then wraps them by message).
  const { name = '', code = '', message = '', $metadata } = error as SdkError;
  return (
    THROTTLING.has(name) ||
    name === 'TimeoutError' ||
    NETWORK.test(code) ||
    NETWORK.test(message) ||
    ($metadata?.httpStatusCode ?? 0) >= 500
  );
}

/** Sends a conditional write: true when written, false when its condition did not hold. */
export async function sendConditional(operation: () => Promise<unknown>): Promise<boolean> {
  try {
    await send(operation);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Sends a command, turning an outage into StoreUnavailableError (which the API answers as 503). */
export async function send<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
  }
}
