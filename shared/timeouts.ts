// The time limits that depend on each other, in one place: a DynamoDB call gives up (and the
// client gets a 503) before the function times out, and an idempotency claim outlives the
// function that holds it, so a claim is never taken over while its request still runs.

export const DYNAMODB_TIMEOUTS = { connectionMs: 1_000, requestMs: 2_000, maxAttempts: 3 } as const;

/** The longest one DynamoDB call can take before it fails, retries included (backoff aside). */
export const DYNAMODB_CALL_WORST_CASE_MS =
  DYNAMODB_TIMEOUTS.maxAttempts * (DYNAMODB_TIMEOUTS.connectionMs + DYNAMODB_TIMEOUTS.requestMs);

/** Every function's timeout; below API Gateway's 29 s integration limit. */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** How long a claim is held by a request in flight. */
export const IN_FLIGHT_MS = FUNCTION_TIMEOUT_SECONDS * 1000 + 5_000;
