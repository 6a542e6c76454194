// What the local gateway serves, in API Gateway's own terms: the stage's methods, their integrations and
// caching, the TOKEN authorizer, the gateway responses, and the stage's and usage plan's limits. It comes
// either from the shared modules the stack is built from (below) or from a synthesized template
// (local/cloud-assembly/template-api-definition.ts).
import type { ApiError } from '#shared/api-error.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import { AUTHORIZER, MINIMUM_COMPRESSION_BYTES, STAGE_NAME } from '#shared/http/routes.ts';

export type Integration =
  /** A Lambda proxy integration, naming its function as the function runner knows it. */
  | { type: 'AWS_PROXY'; functionName: string }
  /** API Gateway answers by itself, with the integration response the request template selects. */
  | { type: 'MOCK'; status: number; headers: Record<string, string>; body: string };

/**
 * A method the stage cache answers: the integration's answers kept `ttlSeconds`, keyed by the values
 * of these request parameters, as API Gateway names them (`method.request.querystring.limit`).
 */
export type MethodCacheDefinition = { ttlSeconds: number; keyParameters: string[] };

export type ApiMethodDefinition = {
  resource: string;
  /** GET, POST, ... or ANY, which matches only when no other method of the resource does. */
  httpMethod: string;
  authorized: boolean;
  integration: Integration;
  /** Absent: not cached (no cache cluster on the stage, or caching off for the method). */
  cache?: MethodCacheDefinition;
};

export type TokenAuthorizerDefinition = {
  header: string;
  validationRegex: string;
  /** 0: no cache, every request calls the authorizer. */
  resultsCacheTtlSeconds: number;
  functionName: string;
};

/**
 * A gateway response: its status (API Gateway's default for the type when absent), static headers
 * and body template (`$context...` substituted).
 */
export type GatewayResponseDefinition = {
  status?: number;
  headers: Record<string, string>;
  template: string;
};

/** A token bucket: `rateLimit` tokens a second into a bucket of `burstLimit`. */
export type RateLimit = { rateLimit: number; burstLimit: number };

export type UsagePlanDefinition = {
  throttle?: RateLimit;
  quota?: { limit: number; period: 'DAY' | 'WEEK' | 'MONTH' };
};

export type ApiDefinition = {
  stageName: string;
  methods: ApiMethodDefinition[];
  authorizer: TokenAuthorizerDefinition;
  gatewayResponses: Record<string, GatewayResponseDefinition>;
  /** The stage's method throttling: one bucket per method. */
  methodThrottle?: RateLimit;
  usagePlan?: UsagePlanDefinition;
  /** The REST API's minimumCompressionSize: answers this large or larger are compressed. Absent: none. */
  minimumCompressionSize?: number;
};

function mockOf(error: ApiError): Integration {
  const { statusCode, headers = {}, body } = errorResponse(error);
  return { type: 'MOCK', status: statusCode, headers: headers as Record<string, string>, body };
}

/**
 * The API as the shared modules define it, with the functions named by operationId and
 * `authorizer`, compressing as the stages do. No caches and no limits: a revoked key is refused at
 * once, a new pet is listed at once, and a developer's loop is never throttled.
 */
export function apiDefinitionFromModules(): ApiDefinition {
  return {
    stageName: STAGE_NAME,
    methods: API_METHODS.map((method) => ({
      resource: method.resource,
      httpMethod: method.httpMethod,
      authorized: true,
      integration: method.error
        ? mockOf(method.error)
        : { type: 'AWS_PROXY', functionName: method.operationId },
    })),
    authorizer: {
      header: AUTHORIZER.header,
      validationRegex: AUTHORIZER.validationRegex,
      resultsCacheTtlSeconds: 0,
      functionName: 'authorizer',
    },
    gatewayResponses: Object.fromEntries(
      GATEWAY_RESPONSES.map(({ type, body, headers }) => [
        type,
        { status: body.status, headers, template: JSON.stringify(body) },
      ]),
    ),
    minimumCompressionSize: MINIMUM_COMPRESSION_BYTES,
  };
}
