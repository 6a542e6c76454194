// API Gateway's stage cache: a cached method's integration answers, whatever their status, kept for the
// method's TTL under its key (the method and the values of its cache key parameters, never the caller).
// The gateway looks it up after the throttles, the authorizer and the usage plan, as API Gateway does, so
// a hit is authorized and counted like any request. A client's `Cache-Control: max-age=0` is ignored.
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ApiMethodDefinition, MethodCacheDefinition } from '#local/api-gateway/definition.ts';
import { lastHeader } from '#shared/http/proxy-event.ts';

/** API Gateway caches no answer whose body is larger than this. */
export const MAX_CACHED_BYTES = 1_048_576;

/** Past this many entries, each new one first clears those that expired. */
const SWEEP_ABOVE = 1_000;

/** The parts of a request a cache key parameter may name. */
export type CacheKeyRequest = {
  /** The raw query string, without '?'. */
  query: string;
  pathParameters: Record<string, string>;
  headers: [string, string][];
};

/** A parameter's values in the request, none when absent; of a repeated header, the last. */
function parameterValues(parameter: string, request: CacheKeyRequest): string[] {
  const [, , location, name = ''] = parameter.split('.');
  if (location === 'querystring') return new URLSearchParams(request.query).getAll(name);
  const value = location === 'path' ? request.pathParameters[name] : lastHeader(request.headers, name);
  return value === undefined ? [] : [value];
}

/**
 * The entry this request of a cached method reads and fills; none when a key query parameter is
 * repeated, since production's web ACL answers such a request before the cache (with the function's
 * own 400: lib/api/petstore-firewall.ts), and here the function gives that answer.
 */
export function cacheKeyOf(
  { httpMethod, resource }: Pick<ApiMethodDefinition, 'httpMethod' | 'resource'>,
  { keyParameters }: MethodCacheDefinition,
  request: CacheKeyRequest,
): string | undefined {
  const values = keyParameters.map((parameter) => parameterValues(parameter, request));
  if (values.some((given) => given.length > 1)) return undefined;
  return JSON.stringify([httpMethod, resource, ...values.map(([value]) => value ?? null)]);
}

const bodyBytes = ({ body, isBase64Encoded }: APIGatewayProxyResult) =>
  Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');

export function createResponseCache(now: () => number = Date.now) {
  const entries = new Map<string, { answer: APIGatewayProxyResult; expiresAt: number }>();

  function sweep(at: number) {
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
  }

  return {
    /** The answer kept under this key, while it is fresh (a copy: the caller may add to it). */
    lookup(key: string): APIGatewayProxyResult | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt > now()) return structuredClone(entry.answer);
      entries.delete(key);
      return undefined;
    },
    /** Keeps an integration's answer for `ttlSeconds` from now, unless it is too large to cache. */
    store(key: string, ttlSeconds: number, answer: APIGatewayProxyResult): void {
      if (bodyBytes(answer) > MAX_CACHED_BYTES) return;
      const at = now();
      if (entries.size >= SWEEP_ABOVE) sweep(at);
      entries.set(key, { answer: structuredClone(answer), expiresAt: at + ttlSeconds * 1000 });
    },
  };
}
