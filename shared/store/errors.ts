/** The write's condition did not hold (the item exists, the lock moved...): not a failure of DynamoDB. */
export const isConditionFailure = (error: unknown) =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException';

/** DynamoDB is unreachable or throttling after retries: the request may be retried later. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('DynamoDB is unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}
