// API Gateway's own answers, rendered as it renders them: the API's gateway response for the type (its
// status, static headers, and body template with `$context` variables substituted), else DEFAULT_4XX or
// DEFAULT_5XX, else API Gateway's built-in `{"message": ...}`. As in API Gateway, a status on DEFAULT_4XX
// (DEFAULT_5XX) becomes the status of every 4XX (5XX) type without one of its own.
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ApiDefinition } from '#local/api-gateway/definition.ts';

/** The types the local gateway answers with: API Gateway's default status and error message of each. */
const BUILT_IN = {
  UNAUTHORIZED: [401, 'Unauthorized'],
  ACCESS_DENIED: [403, 'User is not authorized to access this resource'],
  MISSING_AUTHENTICATION_TOKEN: [403, 'Missing Authentication Token'],
  INVALID_API_KEY: [403, 'Forbidden'],
  REQUEST_TOO_LARGE: [413, 'Request Too Long'],
  THROTTLED: [429, 'Too Many Requests'],
  QUOTA_EXCEEDED: [429, 'Limit Exceeded'],
  AUTHORIZER_FAILURE: [500, null],
  AUTHORIZER_CONFIGURATION_ERROR: [500, null],
  DEFAULT_5XX: [502, 'Internal server error'],
  INTEGRATION_TIMEOUT: [504, 'Endpoint request timed out'],
} as const satisfies Record<string, readonly [number, string | null]>;

export type GatewayAnswerType = keyof typeof BUILT_IN;

/** The `$context` variables a gateway response template may use, as API Gateway fills them. */
export type GatewayAnswerContext = {
  requestId: string;
  httpMethod: string;
  resourcePath: string;
  path: string;
  stage: string;
};

function substitute(template: string, variables: Record<string, string>): string {
  // Plain substitution, as API Gateway does for gateway responses: `$context.x`, `${context.x}`
  // and the quiet `$!context.x`; an unknown variable renders as nothing.
  return template.replace(
    /\$!?(?:\{(context\.[\w.]+)\}|(context\.[\w.]*\w))/g,
    (_match, braced?: string, bare?: string) => variables[braced ?? bare ?? ''] ?? '',
  );
}

export function gatewayAnswer(
  definition: Pick<ApiDefinition, 'gatewayResponses'>,
  type: GatewayAnswerType,
  context: GatewayAnswerContext,
): APIGatewayProxyResult {
  const [builtInStatus, message] = BUILT_IN[type];
  const fallback = definition.gatewayResponses[builtInStatus < 500 ? 'DEFAULT_4XX' : 'DEFAULT_5XX'];
  const response = definition.gatewayResponses[type] ?? fallback;
  const variables: Record<string, string> = {
    'context.requestId': context.requestId,
    'context.extendedRequestId': context.requestId,
    'context.httpMethod': context.httpMethod,
    'context.resourcePath': context.resourcePath,
    'context.path': context.path,
    'context.stage': context.stage,
    'context.error.responseType': type,
    'context.error.message': message ?? '',
    'context.error.messageString': JSON.stringify(message ?? ''),
  };
  if (!response) {
    return {
      statusCode: builtInStatus,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message }),
    };
  }
  return {
    statusCode: response.status ?? fallback?.status ?? builtInStatus,
    headers: response.headers,
    body: substitute(response.template, variables),
  };
}
