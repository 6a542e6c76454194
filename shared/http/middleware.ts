// The middy middlewares every endpoint shares: one turns any failure into the Error object, one
// puts the common (and the operation's own) headers on every response, errors included.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, serviceUnavailable } from '#shared/api-error.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import type { HeaderMap } from '#shared/http/json-response.ts';
import type { Logger } from '#shared/observability.ts';
import { StoreUnavailableError } from '#shared/store/unavailable-error.ts';

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/**
 * middy's options for every function. No early timeout: a request past the function's timeout
 * ends as the platform ends it (the stage run answers 504), not as a 500 a few milliseconds
 * before, which depended on which came first; and no timer armed and raced on every invocation.
 * DynamoDB calls are bounded well inside the timeout (shared/timeouts.ts).
 */
export const MIDDY_OPTIONS = { timeoutEarlyInMillis: 0 };

export function errorResponses(logger: Logger): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  function toApiError(error: unknown, requestId: string): ApiError {
    if (error instanceof ApiError) return error;
    if (error instanceof StoreUnavailableError) {
      logger.warn('DynamoDB unavailable', { requestId, error: error.cause });
      return serviceUnavailable();
    }
    logger.error('Unhandled error', { requestId, error });
    return new ApiError('internal_error', `An unexpected error occurred (request id ${requestId}).`);
  }
  return {
    onError: function respondWithErrorObject(request) {
      request.response = errorResponse(toApiError(request.error, request.context.awsRequestId));
    },
  };
}

export function responseHeaders(
  headers: HeaderMap = {},
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  function addHeaders(request: HttpRequest) {
    if (request.response) request.response.headers = { ...request.response.headers, ...headers };
  }
  return { after: addHeaders, onError: addHeaders };
}
