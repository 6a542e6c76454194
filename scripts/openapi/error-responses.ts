// The error catalogue as the document tells it: when each code is answered, and one reusable
// response per error. The Record over ErrorCode makes a new code fail the type check until it is
// explained here.
import { ERROR_CATALOGUE } from '#shared/api-error.ts';
import type { ApiError, ErrorCode } from '#shared/api-error.ts';
import { gatewayErrorOf } from '#shared/http/gateway-responses.ts';
import { bodyTooLarge, MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '#local/server/http-edges.ts';
import type { Json } from '#scripts/openapi/objects.ts';
import { header, RETRY_AFTER } from '#scripts/openapi/response-headers.ts';

const ERROR_CODE_WHEN: Record<ErrorCode, string> = {
  validation_error: `an invalid body, path or query parameter, malformed JSON, an empty body or a bad cursor (400); on the local server, headers not sent within ${HEADERS_TIMEOUT_MS / 1000} s or the whole request within ${REQUEST_TIMEOUT_MS / 1000} s (408)`,
  unauthorized: 'the API key is missing, malformed, unknown, revoked or expired',
  forbidden:
    "the API key is read-only and the method is not GET, or production's web application firewall blocked the request",
  not_found: 'the animal or the route does not exist',
  method_not_allowed: 'the path exists, the method is not offered there (with `Allow`)',
  idempotency_conflict:
    'the `Idempotency-Key` is still in use by a running request (409) or was used with another body (422)',
  payload_too_large: `the request body is over ${MAX_BODY_BYTES / 1024} KiB`,
  unsupported_media_type: 'the body is not `application/json`, or is content-encoded',
  expectation_failed: 'an `Expect` header other than `100-continue`, with a valid API key (without one: 401)',
  too_many_requests: 'throttled (with `Retry-After`), or the API key is over its quota',
  internal_error: 'a bug; logged with the request id, nothing internal is shown',
  service_unavailable:
    'the database is unreachable or throttling (503), the function failed (502) or timed out (504); with `Retry-After`',
};

/** The codes answered with more than one status. */
const MORE_STATUSES: Partial<Record<ErrorCode, string>> = {
  validation_error: '400, 408',
  idempotency_conflict: '409, 422',
  service_unavailable: '502, 503, 504',
};

export function errorCatalogueTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => {
    const statuses = MORE_STATUSES[code as ErrorCode] ?? String(status);
    return `| ${statuses} | \`${code}\` | ${ERROR_CODE_WHEN[code as ErrorCode]} |`;
  });
  return ['| HTTP | code | when |', '|---|---|---|', ...rows].join('\n');
}

export type ErrorResponse = {
  code: ErrorCode;
  status?: number;
  description: string;
  headers?: Json;
  /** What the API throws when the catalogue's default message is not what it sends: the example's source. */
  thrown?: ApiError;
};

/** One reusable response per error the API answers; idempotency_conflict has two statuses. */
export const ERROR_RESPONSES = {
  ValidationError: { code: 'validation_error', description: 'A parameter, header or the body is invalid.' },
  Unauthorized: {
    code: 'unauthorized',
    description: 'The API key is missing, malformed, unknown, revoked or expired.',
  },
  Forbidden: {
    code: 'forbidden',
    description:
      "The API key is read-only and the method is not GET (the message says so). Or production's web " +
      "application firewall blocked the request: AWS's managed rules matched, or one IP address sent " +
      'too many requests. A missing `User-Agent` is never the reason.',
  },
  NotFound: { code: 'not_found', description: 'The animal, or any route, does not exist.' },
  MethodNotAllowed: {
    code: 'method_not_allowed',
    description: 'The path exists but does not offer this method.',
    headers: {
      Allow: header('The methods the path offers.', { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' }),
    },
  },
  IdempotencyInProgress: {
    code: 'idempotency_conflict',
    status: 409,
    description: 'A request with this `Idempotency-Key` is still running; retry later.',
  },
  IdempotencyMismatch: {
    code: 'idempotency_conflict',
    status: 422,
    description: 'This `Idempotency-Key` was used with another body.',
  },
  PayloadTooLarge: {
    code: 'payload_too_large',
    description: `The body is over ${MAX_BODY_BYTES} bytes.`,
    thrown: bodyTooLarge(),
  },
  UnsupportedMediaType: {
    code: 'unsupported_media_type',
    description:
      'The body is not `application/json` (a `charset=utf-8` parameter is fine), or it has a ' +
      '`Content-Encoding` other than `identity`: the API never decodes a body.',
    headers: {
      'Accept-Encoding': header(
        'Only on a 415 for a `Content-Encoding`: the one coding a body may have (RFC 9110).',
        { type: 'string', const: 'identity' },
        false,
      ),
    },
  },
  TooManyRequests: {
    code: 'too_many_requests',
    description: 'Throttled, or the API key is over its quota.',
    headers: { 'Retry-After': RETRY_AFTER(false) },
  },
  InternalError: { code: 'internal_error', description: 'A bug; nothing internal is shown.' },
  FunctionFailed: {
    code: 'service_unavailable',
    status: 502,
    description: 'The function failed or could not be invoked (API Gateway); retry later.',
    headers: { 'Retry-After': RETRY_AFTER(true) },
    thrown: gatewayErrorOf('DEFAULT_5XX'),
  },
  ServiceUnavailable: {
    code: 'service_unavailable',
    description: 'The database is unreachable or throttling.',
    headers: { 'Retry-After': RETRY_AFTER(true) },
  },
  FunctionTimedOut: {
    code: 'service_unavailable',
    status: 504,
    description: 'The function ran past its timeout (API Gateway); retry later.',
    headers: { 'Retry-After': RETRY_AFTER(true) },
    thrown: gatewayErrorOf('INTEGRATION_TIMEOUT'),
  },
} satisfies Record<string, ErrorResponse>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;
