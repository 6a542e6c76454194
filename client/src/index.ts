// The typed client for store clients: openapi-fetch over the types openapi-typescript generates
// from openapi.json (schema.ts), sending the API key as a bearer token, keeping the int64 categoryId
// exact both ways (a plain JSON.parse would round values above 2^53), retrying what is safe to,
// revalidating the GETs it keeps by ETag and pacing itself to the key's rate limit.
import createClient from 'openapi-fetch';
import type { Client, ClientOptions, Middleware } from 'openapi-fetch';
import { assertExactJsonSupport, parseApiJson, stringifyApiJson } from './api-json.ts';
import { etagCache } from './etag-cache.ts';
import type { CacheOptions } from './etag-cache.ts';
import { pacedFetch } from './paced-fetch.ts';
import { retryPolicy } from './retry-policy.ts';
import type { Retries } from './retry-policy.ts';
import { retryingFetch } from './retrying-fetch.ts';
import { revalidatingFetch } from './revalidating-fetch.ts';
import type { components, paths } from './schema.ts';

export { PetStoreError } from './api-error.ts';
export type { CacheOptions } from './etag-cache.ts';
export { listAllPets, nextCursor } from './pagination.ts';
export type { ListPetsQuery } from './pagination.ts';
export type { Retries, RetryOptions } from './retry-policy.ts';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type ErrorBody = components['schemas']['Error'];
export type PetStoreClient = Client<paths>;

export type PetStoreClientOptions = {
  /** The server's address with its /v1, e.g. https://api.example.com/v1. */
  baseUrl: string;
  apiKey: string;
  /** Another fetch, e.g. one that records or checks every exchange. */
  fetch?: ClientOptions['fetch'];
  /**
   * Retries of a GET, or of a create with an Idempotency-Key (one is generated when none is given), after a
   * 429, 502, 503, 504 or a network error: 3 attempts in all by default; 0 for none.
   */
  retries?: Retries;
  /**
   * The ETag cache: the last 200 of each GET URL that had an ETag, sent again as that 200 when the API
   * answers its If-None-Match with a 304. At most 500 answers by default; false keeps none.
   */
  cache?: CacheOptions | false;
};

class ApiJsonResponse extends Response {
  override json = async (): Promise<unknown> => parseApiJson(await this.text());
}

const isJson = (response: Response) =>
  response.headers.get('Content-Type')?.toLowerCase().startsWith('application/json') ?? false;

/**
 * openapi-fetch has no response-parser option: it reads a successful body with response.json()
 * when Content-Length is set (else with JSON.parse), so each successful JSON response is swapped
 * for one with a Content-Length and a json() that keeps the int64 fields exact.
 */
const exactInt64Responses: Middleware = {
  async onResponse({ response }) {
    if (!response.ok || !isJson(response)) return undefined;
    const text = await response.text();
    const headers = new Headers(response.headers);
    headers.set('Content-Length', String(new TextEncoder().encode(text).length));
    return new ApiJsonResponse(text, { status: response.status, statusText: response.statusText, headers });
  },
};

export function createPetStoreClient({
  baseUrl,
  apiKey,
  fetch,
  retries,
  cache,
}: PetStoreClientOptions): PetStoreClient {
  assertExactJsonSupport();
  const policy = retryPolicy(retries);
  const kept = etagCache(cache);
  // The global fetch is looked up at each call (openapi-fetch takes it once): one replaced later is used.
  const send = fetch ?? ((request: Request) => globalThis.fetch(request));
  // Each attempt waits its turn; a revalidation's 304 becomes a 200 once the retries are done.
  const retrying = retryingFetch(pacedFetch(send, policy.maxRetryAfterMs), policy);
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    bodySerializer: stringifyApiJson,
    fetch: kept ? revalidatingFetch(retrying, kept) : retrying,
  });
  client.use(exactInt64Responses);
  return client;
}
