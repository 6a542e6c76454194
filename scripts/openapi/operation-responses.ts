// Response objects: each error narrowed to its code and status, and the responses of one operation
// with the errors API Gateway can answer on any of them.
import { ApiError, ERROR_CATALOGUE } from '#shared/api-error.ts';
import type { ErrorBody } from '#shared/api-error.ts';
import { ERROR_RESPONSES } from '#scripts/openapi/error-responses.ts';
import type { ErrorResponse, ErrorResponseName } from '#scripts/openapi/error-responses.ts';
import { jsonContent, schemaRef } from '#scripts/openapi/objects.ts';
import type { Json } from '#scripts/openapi/objects.ts';

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const statusOf = (response: ErrorResponse) => response.status ?? ERROR_CATALOGUE[response.code].status;

/** What the API sends: the error it throws, or else the catalogue's default message. */
function exampleBody(response: ErrorResponse, status: number): ErrorBody {
  const body = (response.thrown ?? new ApiError(response.code, undefined, { status })).toBody();
  if (body.code !== response.code || body.status !== status) {
    throw new Error(`The ${response.code} ${status} response's example is a ${body.code} ${body.status}`);
  }
  return body;
}

/**
 * The Error schema narrowed to this response's code and status, so `status` always equals the HTTP
 * status.
 */
function errorResponseObject(response: ErrorResponse, extraHeaders: Json = {}): Json {
  const status = statusOf(response);
  const narrowed = {
    type: 'object',
    properties: { code: { const: response.code }, status: { const: status } },
    required: ['code', 'status'],
  };
  const headers = { ...response.headers, ...extraHeaders };
  return {
    description: `\`${response.code}\`: ${response.description}`,
    ...(Object.keys(headers).length > 0 && { headers }),
    content: jsonContent({ allOf: [schemaRef('Error'), narrowed] }, exampleBody(response, status)),
  };
}

export const responseComponents = (): Record<string, Json> =>
  Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([name, response]) => [name, errorResponseObject(response)]),
  );

/** What any request can get from API Gateway, before or instead of the function. */
const GATEWAY_ERRORS: ErrorResponseName[] = [
  'Unauthorized',
  'Forbidden',
  'TooManyRequests',
  'InternalError',
  'FunctionFailed',
  'ServiceUnavailable',
  'FunctionTimedOut',
];

/** Responses keyed by status in ascending order; errors by reference unless they carry extra headers. */
export function operationResponses(
  success: Record<number, Json>,
  errors: ErrorResponseName[],
  extraErrorHeaders?: Json,
): Json {
  const entries: [number, Json][] = Object.entries(success).map(([status, response]) => [
    Number(status),
    response,
  ]);
  for (const name of [...errors, ...GATEWAY_ERRORS]) {
    const response: ErrorResponse = ERROR_RESPONSES[name];
    const own = extraErrorHeaders && errors.includes(name);
    entries.push([
      statusOf(response),
      own ? errorResponseObject(response, extraErrorHeaders) : responseRef(name),
    ]);
  }
  return Object.fromEntries(
    entries.sort(([a], [b]) => a - b).map(([status, response]) => [String(status), response]),
  );
}
