// The local API Gateway: a REST API stage served from its definition (from the shared modules or a
// synthesized template) in front of a function runner (in this process or in child processes), taking
// each request through API Gateway's steps in API Gateway's order, and compressing the answer last.
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '#shared/api-error.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import type { ApiDefinition, ApiMethodDefinition } from '#local/api-gateway/definition.ts';
import { createGatewayAuthorizer } from '#local/api-gateway/authorizer.ts';
import { gatewayAnswer } from '#local/api-gateway/gateway-responses.ts';
import type { GatewayAnswerType } from '#local/api-gateway/gateway-responses.ts';
import { createGatewayLimits } from '#local/api-gateway/throttling.ts';
import { cacheKeyOf, createResponseCache } from '#local/api-gateway/response-cache.ts';
import { compressedAnswer } from '#local/api-gateway/compression.ts';
import type { FunctionRunner } from '#local/lambda/runner.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '#local/iam/account.ts';
import { lastHeader, toProxyEvent } from '#shared/http/proxy-event.ts';

/** API Gateway's payload limit: past it the answer is 413 without the functions. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** API Gateway's REST integration timeout. */
const INTEGRATION_TIMEOUT_MS = 29_000;

export type GatewayRequest = {
  method: string;
  /** The request target: path and query string. */
  target: string;
  headers: [string, string][];
  /** The body as far as it is kept (the functions refuse anything larger than they keep). */
  body: Buffer;
  /** Every byte the client sent, kept or not. */
  bodyBytes: number;
  sourceIp: string;
  requestId: string;
  /** An `Expect` the server cannot meet (anything but 100-continue), as the client sent it. */
  expectation?: string | undefined;
};

export type ApiGateway = (request: GatewayRequest) => Promise<APIGatewayProxyResult>;

export type ApiGatewayOptions = {
  definition: ApiDefinition;
  functions: FunctionRunner;
  now?: () => number;
  /** Where a fault of the gateway itself is reported; one JSON line on stderr unless a test listens. */
  reportFault?: (fault: GatewayFault) => void;
};

/** An exception no step of the gateway expected: the client gets API Gateway's 502, the log the cause. */
export type GatewayFault = { requestId: string; method: string; target: string; error: string };

const faultToStderr = (fault: GatewayFault) =>
  console.error(JSON.stringify({ time: new Date().toISOString(), level: 'ERROR', ...fault }));

const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** How specific each segment of a resource is: a literal (0), a {param} (1), a {greedy+} (2). */
function compileResource(resource: string) {
  const segments = resource.split('/').filter(Boolean);
  const pattern = segments
    .map((segment) => {
      const variable = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!variable) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      return variable[2] ? `/(?<${variable[1]}>.+)` : `/(?<${variable[1]}>[^/]+)`;
    })
    .join('');
  const rank = segments.map((segment) => (segment.endsWith('+}') ? 2 : segment.startsWith('{') ? 1 : 0));
  return { resource, pattern: new RegExp(`^${pattern || '/'}$`), rank };
}

const moreSpecific = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) < (b[i] ?? -1);
  }
  return false;
};

/** The request target's path, as sent (no dot-segment resolution), and its query string. */
function splitTarget(target: string) {
  const queryAt = target.indexOf('?');
  return {
    pathname: queryAt === -1 ? target : target.slice(0, queryAt),
    query: queryAt === -1 ? '' : target.slice(queryAt + 1),
  };
}

export function createApiGateway({
  definition,
  functions,
  now = Date.now,
  reportFault = faultToStderr,
}: ApiGatewayOptions): ApiGateway {
  const basePath = `/${definition.stageName}`;
  const resources = [...new Set(definition.methods.map((method) => method.resource))].map(compileResource);
  const authorize = createGatewayAuthorizer(definition.authorizer, functions, now);
  const limits = createGatewayLimits(definition, now);
  const responseCache = createResponseCache(now);
  const catchAll = resources.find(({ rank }) => rank.length === 1 && rank[0] === 2);

  function matchResource(path: string) {
    let best: { resource: string; rank: number[]; pathParameters: Record<string, string> } | undefined;
    for (const { resource, pattern, rank } of resources) {
      const match = pattern.exec(path);
      if (match && (!best || moreSpecific(rank, best.rank))) {
        const parameters = Object.entries(match.groups ?? {}).map(([name, value]) => [
          name,
          decodeSegment(value),
        ]);
        best = { resource, rank, pathParameters: Object.fromEntries(parameters) };
      }
    }
    return best;
  }

  const methodOf = (resource: string, httpMethod: string): ApiMethodDefinition | undefined =>
    definition.methods.find((method) => method.resource === resource && method.httpMethod === httpMethod) ??
    definition.methods.find((method) => method.resource === resource && method.httpMethod === 'ANY');

  async function integrate(
    method: ApiMethodDefinition,
    event: ReturnType<typeof toProxyEvent>,
    requestId: string,
  ): Promise<APIGatewayProxyResult | GatewayAnswerType> {
    const { integration } = method;
    if (integration.type === 'MOCK') {
      return { statusCode: integration.status, headers: integration.headers, body: integration.body };
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), INTEGRATION_TIMEOUT_MS);
    });
    const invocation = await Promise.race([
      functions.invoke(integration.functionName, event, requestId),
      timedOut,
    ]).finally(() => clearTimeout(timer));
    if (invocation === 'timeout') return 'INTEGRATION_TIMEOUT';
    // A function past its own timeout is answered as a timed-out integration; any other failure
    // (a throw, a crash, no instance to be had) is API Gateway's 502 for a failed Lambda call.
    if (!invocation.ok) return invocation.failure === 'timeout' ? 'INTEGRATION_TIMEOUT' : 'DEFAULT_5XX';
    const result = invocation.result as Partial<APIGatewayProxyResult> | undefined;
    if (
      !Number.isInteger(result?.statusCode) ||
      (result?.body !== undefined && typeof result.body !== 'string')
    )
      return 'DEFAULT_5XX';
    return result as APIGatewayProxyResult;
  }

  /** API Gateway's own answers to this request, with its `$context` for their templates. */
  const answerTo =
    (request: GatewayRequest, resourcePath = '') =>
    (type: GatewayAnswerType) =>
      gatewayAnswer(definition, type, {
        requestId: request.requestId,
        httpMethod: request.method,
        resourcePath,
        path: splitTarget(request.target).pathname,
        stage: definition.stageName,
      });

  /**
   * The payload limit, the resource and method (literal before {param} before {proxy+}, ANY only when no
   * method matches), the stage's method throttle, the TOKEN authorizer, the usage plan's per-key throttle
   * and quota, an `Expect` the server cannot meet (417), the stage cache of a cached method, then the
   * integration: a mock's answer, or the function on the REST (v1) proxy event within the integration
   * timeout; its answer, not API Gateway's own, fills the cache.
   */
  async function handleGatewayRequest(request: GatewayRequest): Promise<APIGatewayProxyResult> {
    const { pathname, query } = splitTarget(request.target);
    const underStage = pathname === basePath || pathname.startsWith(`${basePath}/`);
    const path = underStage ? pathname.slice(basePath.length).replace(/(?<=.)\/$/, '') || '/' : pathname;
    // Outside the stage only the catch-all answers, as every path does behind the authorizer.
    const matched = underStage ? matchResource(path) : catchAll && { ...catchAll, pathParameters: {} };
    const method = matched && methodOf(matched.resource, request.method);
    const answer = answerTo(request, matched?.resource);

    if (request.bodyBytes > MAX_REQUEST_BYTES) return answer('REQUEST_TOO_LARGE');
    if (!matched || !method) return answer('MISSING_AUTHENTICATION_TOKEN');
    const throttled = limits.admitMethod(`${method.httpMethod} ${method.resource}`);
    if (throttled) return answer(throttled);

    let authorizer: Record<string, string> | undefined;
    if (method.authorized) {
      const identity = lastHeader(request.headers, definition.authorizer.header);
      const methodArn = `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:local/${definition.stageName}/${request.method}${path}`;
      const authorization = await authorize(identity, methodArn, request.requestId);
      if (authorization.denied) return answer(authorization.denied);
      if (definition.usagePlan) {
        if (authorization.usageIdentifierKey === undefined) return answer('INVALID_API_KEY');
        const overLimit = limits.admitKey(authorization.usageIdentifierKey);
        if (overLimit) return answer(overLimit);
      }
      authorizer = authorization.context;
    }
    // RFC 9110 section 10.1.1 allows a 417 for an expectation the server cannot meet. It comes
    // after the authorizer, so that a client without a valid key learns that first (as it would
    // from any other request), and instead of the function, which never sees the request.
    if (request.expectation !== undefined) return errorResponse(new ApiError('expectation_failed'));

    const { cache } = method;
    const keyRequest = { query, pathParameters: matched.pathParameters, headers: request.headers };
    const cacheKey = cache && cacheKeyOf(method, cache, keyRequest);
    const cached = cacheKey && responseCache.lookup(cacheKey);
    if (cached) return cached;

    const event = toProxyEvent({
      method: request.method,
      path,
      resource: matched.resource,
      pathParameters: matched.pathParameters,
      query,
      headers: request.headers,
      body: request.body,
      authorizer,
      accountId: LOCAL_ACCOUNT,
      sourceIp: request.sourceIp,
      requestId: request.requestId,
    });
    const result = await integrate(method, event, request.requestId);
    if (typeof result === 'string') return answer(result);
    if (cache && cacheKey) responseCache.store(cacheKey, cache.ttlSeconds, result);
    return result;
  }

  return async (request) => {
    const answer = await handleGatewayRequest(request).catch((error: unknown) => {
      const { requestId, method, target } = request;
      reportFault({
        requestId,
        method,
        target,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return answerTo(request)('DEFAULT_5XX');
    });
    // Last, on the way out: the stage cache keeps answers as the integration gave them.
    const acceptEncoding = lastHeader(request.headers, 'Accept-Encoding');
    return compressedAnswer(answer, acceptEncoding, definition.minimumCompressionSize);
  };
}
