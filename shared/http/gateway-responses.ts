// What API Gateway answers by itself, before or instead of a function: its gateway responses, and
// the mock integrations behind unknown paths (404) and known paths with another method (405).
// One definition, so that the deployed and the local API answer alike.
import { ApiError, RETRY_AFTER_SECONDS } from '#shared/api-error.ts';
import type { ErrorBody, ErrorCode } from '#shared/api-error.ts';
import { ALLOWED_METHODS } from '#shared/http/routes.ts';
import { RESPONSE_HEADERS } from '#shared/http/json-response.ts';

export type GatewayResponse<Type extends string = string> = {
  type: Type;
  body: ErrorBody;
  headers: Record<string, string>;
};

const NO_ROUTE = 'No route matches this path.';
const READ_ONLY_KEY = 'This API key is read-only: it may call GET only.';
const FUNCTION_FAILED = 'The request could not be completed: retry later.';
const retryAfter = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
/** RFC 9110: a 401 names the scheme that would succeed. */
const bearerChallenge = { 'WWW-Authenticate': 'Bearer' };

function gatewayResponse<Type extends string>(
  type: Type,
  code: ErrorCode,
  options: { message?: string; status?: number; headers?: Record<string, string> } = {},
): GatewayResponse<Type> {
  const error = new ApiError(code, options.message, options);
  return { type, body: error.toBody(), headers: { ...RESPONSE_HEADERS, ...error.headers } };
}

/**
 * Every gateway response type API Gateway has, each as an Error object with its literal status.
 * API Gateway gives DEFAULT_4XX's status (and DEFAULT_5XX's) to every type of its class that is
 * not customized, so each type is, with the contract's answer for it; the defaults only reach a
 * type API Gateway adds later, with a generic answer whose body still states its status.
 */
export const GATEWAY_RESPONSES = [
  gatewayResponse('UNAUTHORIZED', 'unauthorized', { headers: bearerChallenge }),
  // The authorizer's policy allows a read-only key GET only: its other requests match no Allow.
  gatewayResponse('ACCESS_DENIED', 'forbidden', { message: READ_ONLY_KEY }),
  // Failures of AWS signature authentication, which no method uses: still about credentials.
  gatewayResponse('EXPIRED_TOKEN', 'unauthorized', { headers: bearerChallenge }),
  gatewayResponse('INVALID_SIGNATURE', 'unauthorized', { headers: bearerChallenge }),
  // Every path has a method (the {proxy+} catch-all), so this only answers paths API Gateway cannot route.
  gatewayResponse('MISSING_AUTHENTICATION_TOKEN', 'not_found', { message: NO_ROUTE }),
  gatewayResponse('RESOURCE_NOT_FOUND', 'not_found', { message: NO_ROUTE }),
  gatewayResponse('BAD_REQUEST_PARAMETERS', 'validation_error'),
  gatewayResponse('BAD_REQUEST_BODY', 'validation_error'),
  gatewayResponse('REQUEST_TOO_LARGE', 'payload_too_large', {
    message: 'The request is larger than API Gateway accepts (10 MiB).',
  }),
  gatewayResponse('UNSUPPORTED_MEDIA_TYPE', 'unsupported_media_type'),
  gatewayResponse('THROTTLED', 'too_many_requests', { headers: retryAfter }),
  gatewayResponse('QUOTA_EXCEEDED', 'too_many_requests', {
    message: 'The API key is over its quota: retry later.',
  }),
  gatewayResponse('INVALID_API_KEY', 'unauthorized', { headers: bearerChallenge }),
  // The stage's web ACL (lib/api/petstore-firewall.ts) blocked the request; WAF's own custom response
  // answers it with this same Error object.
  gatewayResponse('WAF_FILTERED', 'forbidden'),
  // The authorizer fails (rather than denies) when it cannot read the key table.
  gatewayResponse('AUTHORIZER_FAILURE', 'service_unavailable', { headers: retryAfter }),
  gatewayResponse('AUTHORIZER_CONFIGURATION_ERROR', 'internal_error'),
  // The function failed (threw, crashed, its instance died) or could not be invoked: API
  // Gateway's 502, worth a retry (a create with its Idempotency-Key is safe to repeat).
  gatewayResponse('INTEGRATION_FAILURE', 'service_unavailable', {
    status: 502,
    message: FUNCTION_FAILED,
    headers: retryAfter,
  }),
  // The function ran past its timeout, or past API Gateway's 29 s: 504.
  gatewayResponse('INTEGRATION_TIMEOUT', 'service_unavailable', {
    status: 504,
    message: 'The request took too long to complete: retry later.',
    headers: retryAfter,
  }),
  gatewayResponse('API_CONFIGURATION_ERROR', 'internal_error'),
  gatewayResponse('DEFAULT_4XX', 'validation_error', { message: 'The request could not be accepted.' }),
  // What API Gateway answers a Lambda function error with (502) when no other type applies.
  gatewayResponse('DEFAULT_5XX', 'service_unavailable', {
    status: 502,
    message: FUNCTION_FAILED,
    headers: retryAfter,
  }),
] as const;

export type GatewayResponseType = (typeof GATEWAY_RESPONSES)[number]['type'];

export const gatewayResponseOf = (type: GatewayResponseType): GatewayResponse => {
  const response = GATEWAY_RESPONSES.find((candidate) => candidate.type === type);
  if (!response) throw new Error(`No gateway response of type ${type}`);
  return response;
};

/** A gateway response as the error it answers (its body's code, message and status). */
export const gatewayErrorOf = (type: GatewayResponseType): ApiError => {
  const { body } = gatewayResponseOf(type);
  return new ApiError(body.code, body.message, { status: body.status });
};

/** The answer for a path no route serves. */
export const unknownPathError = () => new ApiError('not_found', NO_ROUTE);

/** The answer for a known path asked with a method it does not offer, with its Allow header. */
export function methodNotAllowedError(path: string): ApiError {
  const allowed = ALLOWED_METHODS[path] ?? [];
  return new ApiError('method_not_allowed', `This path offers ${allowed.join(', ')} only.`, {
    headers: { Allow: allowed.join(', ') },
  });
}
