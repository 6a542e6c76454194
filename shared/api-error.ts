// The contract's error catalogue: every error the API can answer, with its HTTP status and a
// default message, in one place so that every answer, API Gateway's own included, says the same.
import * as z from 'zod/mini';
import type { $ZodError } from 'zod/v4/core';
import { pureSchema } from '#shared/pure-schema.ts';

export const ERROR_CATALOGUE = {
  validation_error: { status: 400, message: 'The request is invalid.' },
  unauthorized: { status: 401, message: 'A valid API key is required: send Authorization: Bearer <key>.' },
  forbidden: { status: 403, message: 'The request was blocked by the firewall.' },
  not_found: { status: 404, message: 'The requested resource does not exist.' },
  method_not_allowed: { status: 405, message: 'The method is not allowed on this resource.' },
  idempotency_conflict: { status: 409, message: 'The Idempotency-Key is already in use.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body must be application/json.' },
  expectation_failed: {
    status: 417,
    message: 'The Expect header asks for what this API does not do: only 100-continue is supported.',
  },
  too_many_requests: { status: 429, message: 'Too many requests: slow down and retry later.' },
  internal_error: { status: 500, message: 'An unexpected error occurred.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable: retry later.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ErrorCode = /* @__PURE__ */ pureSchema(() =>
  z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]),
);

export const ErrorBody = /* @__PURE__ */ pureSchema(() =>
  z.strictObject({
    code: ErrorCode,
    message: z.string(),
    status: z.int().check(z.minimum(400), z.maximum(599)),
  }),
);
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An error a client can see: its code, message and status go out as the Error object. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/** Seconds a client should wait before retrying after a 503 (DynamoDB unreachable or throttling). */
export const RETRY_AFTER_SECONDS = 1;

export const serviceUnavailable = (message?: string) =>
  new ApiError('service_unavailable', message, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });

/** A body with a thousand unknown fields gets a message of a readable length. */
const MAX_MESSAGES_SHOWN = 10;

/**
 * A repeated query parameter is ambiguous. Production's web ACL gives this same answer before API
 * Gateway's cache could keep it under one of the values (lib/api/petstore-firewall.ts).
 */
export const repeatedQueryParameterError = (name: string) =>
  new ApiError('validation_error', `${name}: must be given at most once`);

/** Formats zod issues as the contract's messages, each naming its field: `limit: must be ...`. */
export function validationError(where: string, error: $ZodError): ApiError {
  const messages = error.issues.flatMap((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : where;
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${key}: ${issue.message}`);
    return [`${path}: ${issue.message}`];
  });
  const shown = messages.slice(0, MAX_MESSAGES_SHOWN);
  if (messages.length > shown.length) shown.push(`and ${messages.length - shown.length} more`);
  return new ApiError('validation_error', shown.join('; '));
}
