/** DynamoDB is unreachable or throttling after retries: the request may be retried later. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('DynamoDB is unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}
