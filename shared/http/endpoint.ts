// An API Gateway REST (v1) proxy handler on the shared middy pipeline. The handler it wraps gets
// the request already validated against its zod schemas and returns a response; every failure,
// its own included, leaves as the contract's Error object.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as z from 'zod/mini';
import { repeatedQueryParameterError, validationError } from '#shared/api-error.ts';
import { conditionalGet } from '#shared/http/conditional-get.ts';
import { jsonBody } from '#shared/http/json-body.ts';
import type { JsonBodyEvent } from '#shared/http/json-body.ts';
import type { HeaderMap } from '#shared/http/json-response.ts';
import { MIDDY_OPTIONS, errorResponses, responseHeaders } from '#shared/http/middleware.ts';
import type { Observability } from '#shared/observability.ts';

export type RequestSchemas = { body?: z.ZodMiniType; query?: z.ZodMiniObject; path?: z.ZodMiniObject };
type Parsed<S extends RequestSchemas> = {
  [K in keyof S]: S[K] extends z.ZodMiniType ? z.output<S[K]> : never;
};
export type EndpointRequest<S extends RequestSchemas> = Parsed<S> & { event: JsonBodyEvent };

/** What every endpoint of a function is given by its composition. */
export type EndpointDependencies = {
  observability: Observability;
  /** Headers on every response of the stage, errors included (shared/http/rate-limit-policy.ts). */
  stageHeaders?: HeaderMap;
};

export type EndpointOptions<S extends RequestSchemas> = EndpointDependencies & {
  request: S;
  /** Headers on every response of the operation, errors included. */
  responseHeaders?: HeaderMap;
  /** A GET: its 200s carry an ETag and answer a matching If-None-Match with 304. */
  conditional?: boolean;
};

function validate<T extends z.ZodMiniType>(where: string, schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(where, result.error);
  return result.data;
}

/** The known query parameters, each given at most once (a repeated one is ambiguous: 400). */
function singleQueryParameters(event: APIGatewayProxyEvent, schema: z.ZodMiniObject): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const values = event.multiValueQueryStringParameters?.[name] ?? [];
    if (values.length > 1) throw repeatedQueryParameterError(name);
    const value = event.queryStringParameters?.[name];
    if (value !== undefined) parameters[name] = value;
  }
  return parameters;
}

export function httpEndpoint<S extends RequestSchemas>(
  {
    request: schemas,
    responseHeaders: headers,
    conditional,
    observability,
    stageHeaders,
  }: EndpointOptions<S>,
  handle: (request: EndpointRequest<S>) => Promise<APIGatewayProxyResult>,
) {
  const pipeline = middy<JsonBodyEvent, APIGatewayProxyResult>(MIDDY_OPTIONS)
    .use(observability.observeInvocations())
    .use(responseHeaders({ ...stageHeaders, ...headers }))
    .use(errorResponses(observability.logger));
  if (conditional) pipeline.use(conditionalGet());
  if (schemas.body) pipeline.use(jsonBody());

  return pipeline.handler(async function handleValidatedRequest(event) {
    const parsed: Record<string, unknown> = { event };
    if (schemas.path) parsed.path = validate('path', schemas.path, event.pathParameters ?? {});
    if (schemas.query)
      parsed.query = validate('query', schemas.query, singleQueryParameters(event, schemas.query));
    if (schemas.body) parsed.body = validate('body', schemas.body, event.jsonBody);
    return handle(parsed as EndpointRequest<S>);
  });
}
