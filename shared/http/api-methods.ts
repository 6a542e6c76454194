// Every method of the REST API and what answers it: a function for each route, and API Gateway
// itself (a mock integration answering an Error object) for another method on a known path (405)
// and for any path no route serves (404). One list, so that the deployed and the local API agree.
import type { ApiError } from '#shared/api-error.ts';
import { methodNotAllowedError, unknownPathError } from '#shared/http/gateway-responses.ts';
import { ALLOWED_METHODS, ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';
import type { ListPetsQuery } from '#shared/schemas.ts';

/** API Gateway's catch-all resource: every path below the stage that no other resource matches. */
const CATCH_ALL_RESOURCE = '/{proxy+}';

export type ApiMethod = {
  resource: string;
  httpMethod: string;
  /**
   * Set where a stage may answer the method from its cache: the query parameters the answer depends
   * on, the whole cache key. Never the API key: the answer is the same for every caller.
   */
  cacheKeyQueryParameters?: readonly string[];
  /**
   * The request headers that join the cache key: `If-None-Match`, since API Gateway caches a 304 as
   * it caches any answer, and a 304 is only right for the tags it answered.
   */
  cacheKeyHeaders?: readonly string[];
} & ({ operationId: OperationId; error?: undefined } | { operationId?: undefined; error: ApiError });

/** listPets' query parameters, each of them (the Record demands it): a cached page is keyed by all. */
const LIST_PETS_QUERY: Record<keyof ListPetsQuery, true> = { limit: true, status: true, cursor: true };

export const API_METHODS: ApiMethod[] = [
  ...ROUTES.map(({ path, method, operationId }) => ({
    resource: path,
    httpMethod: method,
    operationId,
    ...(operationId === 'listPets' && {
      cacheKeyQueryParameters: Object.keys(LIST_PETS_QUERY),
      cacheKeyHeaders: ['If-None-Match'],
    }),
  })),
  // API Gateway picks ANY only when no method of the resource matches.
  ...Object.keys(ALLOWED_METHODS).map((path) => ({
    resource: path,
    httpMethod: 'ANY',
    error: methodNotAllowedError(path),
  })),
  { resource: '/', httpMethod: 'ANY', error: unknownPathError() },
  { resource: CATCH_ALL_RESOURCE, httpMethod: 'ANY', error: unknownPathError() },
];
