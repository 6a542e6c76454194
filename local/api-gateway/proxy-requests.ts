// Drives a handler directly, the way Lambda does: a REST API proxy event built as the local gateway
// builds it, and a Lambda context. The requests are those API Gateway forwards once the authorizer
// allowed them.
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { LOCAL_ACCOUNT } from '#local/iam/account.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { toProxyEvent } from '#shared/http/proxy-event.ts';
import type { ProxyRequest } from '#shared/http/proxy-event.ts';
import { stringifyJson } from '#shared/json.ts';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export type Response = { status: number; headers: Record<string, string>; text: string; json: unknown };

export async function invoke(handler: Handler, request: ProxyRequest): Promise<Response> {
  const result = await handler(toProxyEvent({ accountId: LOCAL_ACCOUNT, ...request }), lambdaContext());
  return {
    status: result.statusCode,
    headers: Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
    ),
    text: result.body,
    json: result.body ? JSON.parse(result.body) : undefined,
  };
}

export const AUTHORIZED = { principalId: 'key_test', apiKeyId: 'key_test' };

/** Requests as API Gateway forwards them after the authorizer allowed them. */
export const listPetsRequest = (query = ''): ProxyRequest => ({
  method: 'GET',
  path: '/pets',
  resource: '/pets',
  query,
  headers: [['Authorization', 'Bearer test']],
  authorizer: AUTHORIZED,
});

export const getPetRequest = (petId: string): ProxyRequest => ({
  method: 'GET',
  path: `/pets/${petId}`,
  resource: '/pets/{petId}',
  pathParameters: { petId },
  headers: [['Authorization', 'Bearer test']],
  authorizer: AUTHORIZED,
});

export const createPetRequest = (
  body: unknown,
  { contentType = 'application/json', headers = [] as [string, string][] } = {},
): ProxyRequest => ({
  method: 'POST',
  path: '/pets',
  resource: '/pets',
  headers: [
    ['Authorization', 'Bearer test'],
    ...(contentType ? [['Content-Type', contentType] as [string, string]] : []),
    ...headers,
  ],
  body: typeof body === 'string' || Buffer.isBuffer(body) ? body : stringifyJson(body),
  authorizer: AUTHORIZED,
});
