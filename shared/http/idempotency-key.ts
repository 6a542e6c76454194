// The Idempotency-Key request header: 1 to 255 visible ASCII characters, given at most once,
// scoped to the calling API key (the authorizer's principal).
import { ApiError } from '#shared/api-error.ts';
import type { IdempotentRequest } from '#shared/idempotent-create.ts';
import { headerValues } from '#shared/http/header-value.ts';
import type { JsonBodyEvent } from '#shared/http/json-body.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const invalid = () =>
  new ApiError(
    'validation_error',
    `${IDEMPOTENCY_KEY_HEADER}: must be 1 to 255 visible ASCII characters, given once`,
  );

export function idempotentRequest(event: JsonBodyEvent): IdempotentRequest | undefined {
  const [key, ...others] = headerValues(event, IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return undefined;
  if (others.length > 0 || !IDEMPOTENCY_KEY_PATTERN.test(key)) throw invalid();
  const scope = String(event.requestContext.authorizer?.principalId ?? 'anonymous');
  return { scope, key, body: event.jsonBody };
}
