// What API Gateway does in front of the functions, reproduced from the module the CDK stack reads
// (shared/http/routes.ts, gateway-responses.ts): the TOKEN authorizer's header check and call,
// its gateway responses, route matching with 404 for unknown paths and 405 for other methods,
// then the function itself on the REST (v1) proxy event. Unlike API Gateway, nothing is cached:
// a revoked key is refused at once.
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  gatewayResponseOf,
  methodNotAllowedError,
  unknownPathError,
} from '#shared/http/gateway-responses.ts';
import type { GatewayResponseType } from '#shared/http/gateway-responses.ts';
import { errorResponse, jsonResponse } from '#shared/http/json-response.ts';
import { ALLOWED_METHODS, AUTHORIZER, BASE_PATH, ROUTES, STAGE_NAME } from '#shared/http/routes.ts';
import type { LocalFunctions } from '#local/local-functions.ts';
import { toProxyEvent } from '#local/proxy-event.ts';

export type GatewayRequest = {
  method: string;
  /** The request target: path and query string. */
  target: string;
  headers: [string, string][];
  body: Buffer;
  sourceIp: string;
  requestId: string;
};

const validAuthorizationHeader = new RegExp(AUTHORIZER.validationRegex);
const methodArn = (method: string, resource: string) =>
  `arn:aws:execute-api:local:123456789012:local/${STAGE_NAME}/${method}${resource}`;

const resourcePattern = (resource: string) =>
  new RegExp(`^${resource.replace(/\{(\w+)\}/g, (_match, name: string) => `(?<${name}>[^/]+)`)}$`);
const RESOURCES = Object.keys(ALLOWED_METHODS).map((resource) => ({
  resource,
  pattern: resourcePattern(resource),
}));

const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The resource a path below the stage belongs to, with its path parameters. */
function matchResource(path: string) {
  for (const { resource, pattern } of RESOURCES) {
    const match = pattern.exec(path);
    if (match) {
      const parameters = Object.entries(match.groups ?? {}).map(([name, value]) => [
        name,
        decodeSegment(value),
      ]);
      return { resource, pathParameters: Object.fromEntries(parameters) as Record<string, string> };
    }
  }
  return undefined;
}

/** One of API Gateway's own answers (shared/http/gateway-responses.ts). */
export function gatewayAnswer(type: GatewayResponseType): APIGatewayProxyResult {
  const { body, headers } = gatewayResponseOf(type);
  return jsonResponse(body.status, body, headers);
}

/** The request target's path, as sent (no dot-segment resolution), and its query string. */
function splitTarget(target: string) {
  const queryAt = target.indexOf('?');
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  return { pathname, query: queryAt === -1 ? '' : target.slice(queryAt + 1) };
}

type Authorization =
  { denied: APIGatewayProxyResult } | { denied?: undefined; context: Record<string, string> };

async function authorize(
  authorizer: LocalFunctions['authorizer'],
  authorization: string | undefined,
  method: string,
  resource: string,
  context: Context,
): Promise<Authorization> {
  if (authorization === undefined || !validAuthorizationHeader.test(authorization)) {
    return { denied: gatewayAnswer('UNAUTHORIZED') };
  }
  let result: APIGatewayAuthorizerResult;
  try {
    result = await authorizer(
      {
        type: 'TOKEN',
        authorizationToken: authorization,
        methodArn: methodArn(method, resource),
      },
      context,
    );
  } catch (error) {
    return {
      denied: gatewayAnswer(
        (error as Error).message === 'Unauthorized' ? 'UNAUTHORIZED' : 'AUTHORIZER_FAILURE',
      ),
    };
  }
  const allowed = result.policyDocument.Statement.some((statement) => statement.Effect === 'Allow');
  if (!allowed) return { denied: gatewayAnswer('ACCESS_DENIED') };
  return { context: { principalId: result.principalId, ...(result.context as Record<string, string>) } };
}

export type ApiGateway = (request: GatewayRequest, context: Context) => Promise<APIGatewayProxyResult>;

export const createApiGateway = (functions: LocalFunctions): ApiGateway =>
  async function handleGatewayRequest(request, context) {
    const { pathname, query } = splitTarget(request.target);
    const underStage = pathname === BASE_PATH || pathname.startsWith(`${BASE_PATH}/`);
    const path = underStage ? pathname.slice(BASE_PATH.length).replace(/(?<=.)\/$/, '') || '/' : undefined;
    const matched = path === undefined ? undefined : matchResource(path);
    // Like the proxy event's single-value map, the last of repeated headers counts.
    const authorization = request.headers.findLast(
      ([name]) => name.toLowerCase() === AUTHORIZER.header.toLowerCase(),
    )?.[1];

    // Every path, known or not, has a method behind the authorizer in the stack: 401 comes first.
    const auth = await authorize(
      functions.authorizer,
      authorization,
      request.method,
      matched?.resource ?? '/{proxy+}',
      context,
    );
    if (auth.denied) return auth.denied;
    if (!matched || path === undefined) return errorResponse(unknownPathError());
    const route = ROUTES.find(
      (candidate) => candidate.path === matched.resource && candidate.method === request.method,
    );
    if (!route) return errorResponse(methodNotAllowedError(matched.resource));

    const event = toProxyEvent({
      method: request.method,
      path,
      resource: matched.resource,
      pathParameters: matched.pathParameters,
      query,
      headers: request.headers,
      body: request.body,
      authorizer: auth.context,
      sourceIp: request.sourceIp,
      requestId: request.requestId,
    });
    return functions[route.operationId](event, context);
  };
