// The middy middlewares every endpoint shares: one turns any failure into the Error object, one
// puts the common (and the operation's own) headers on every response, errors included.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, serviceUnavailable } from '#shared/errors.ts';
import { errorResponse } from '#shared/http/responses.ts';
import type { Headers } from '#shared/http/responses.ts';
import { logger } from '#shared/observability.ts';
import { StoreUnavailableError } from '#shared/store/errors.ts';

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

function toApiError(error: unknown, request: HttpRequest): ApiError {
  if (error instanceof ApiError) return error;
  const requestId = request.context.awsRequestId;
  if (error instanceof StoreUnavailableError) {
    logger.warn('DynamoDB unavailable', { requestId, error: error.cause });
    return serviceUnavailable();
  }
  logger.error('Unhandled error', { requestId, error });
  return new ApiError('internal_error', `An unexpected error occurred (request id ${requestId}).`);
}

export function errorResponses(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: function respondWithErrorObject(request) {
      request.response = errorResponse(toApiError(request.error, request));
    },
  };
}

export function responseHeaders(
  headers: Headers = {},
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  function addHeaders(request: HttpRequest) {
    if (request.response) request.response.headers = { ...request.response.headers, ...headers };
  }
  return { after: addHeaders, onError: addHeaders };
}
