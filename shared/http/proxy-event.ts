// Builds the event API Gateway REST (v1) sends a Lambda proxy integration from the parts of an HTTP
// request, so that handlers run locally, and a new version's rollout checks, see the shape they see in
// AWS: headers and their multi-value twins, decoded query maps (a repeated parameter keeps its last
// value in the single map), path parameters, and a requestContext whose stage is v1.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { BASE_PATH, STAGE_NAME } from '#shared/http/routes.ts';

export type ProxyRequest = {
  method: string;
  /** The path below the stage, e.g. /pets/42. */
  path: string;
  /** The API Gateway resource it matched, e.g. /pets/{petId}. */
  resource: string;
  pathParameters?: Record<string, string>;
  /** The raw query string, without '?'. */
  query?: string;
  /** Header pairs as received (a name may repeat). */
  headers?: [string, string][];
  body?: Buffer | string;
  /** What the authorizer returned in its context, plus its principalId. */
  authorizer?: Record<string, string>;
  sourceIp?: string;
  requestId?: string;
  /** The account of the API, which the request context names. */
  accountId?: string;
};

/**
 * A header's value, its name in any case; of a repeated header, the last, as in the proxy event's
 * single-value map (API Gateway does not document which it keeps).
 */
export const lastHeader = (pairs: [string, string][], name: string): string | undefined =>
  pairs.findLast(([candidate]) => candidate.toLowerCase() === name.toLowerCase())?.[1];

/**
 * Gathered in a Map and only then made an object (own properties, as Lambda's JSON.parse makes them):
 * a name the client chose, such as `toString` or `__proto__`, is never looked up on a prototype.
 */
function multiValueMap(pairs: [string, string][]): Record<string, string[]> | null {
  if (pairs.length === 0) return null;
  const map = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const values = map.get(name);
    if (values) values.push(value);
    else map.set(name, [value]);
  }
  return Object.fromEntries(map);
}

const lastValues = (multi: Record<string, string[]> | null) =>
  multi && Object.fromEntries(Object.entries(multi).map(([name, values]) => [name, values.at(-1) ?? '']));

function bodyField(
  body: Buffer | string | undefined,
): Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'> {
  if (body === undefined || body.length === 0) return { body: null, isBase64Encoded: false };
  if (typeof body === 'string') return { body, isBase64Encoded: false };
  const text = body.toString('utf8');
  // Bytes that are not UTF-8 travel base64-encoded so the handler sees exactly what was sent.
  return Buffer.from(text, 'utf8').equals(body)
    ? { body: text, isBase64Encoded: false }
    : { body: body.toString('base64'), isBase64Encoded: true };
}

export function toProxyEvent(request: ProxyRequest): APIGatewayProxyEvent {
  const headerPairs = request.headers ?? [];
  const queryPairs = [...new URLSearchParams(request.query ?? '')] as [string, string][];
  const multiValueHeaders = multiValueMap(headerPairs);
  const multiValueQueryStringParameters = multiValueMap(queryPairs);
  const requestId = request.requestId ?? randomUUID();
  const now = Date.now();
  return {
    resource: request.resource,
    path: request.path,
    httpMethod: request.method,
    headers: lastValues(multiValueHeaders) ?? {},
    multiValueHeaders: multiValueHeaders ?? {},
    queryStringParameters: lastValues(multiValueQueryStringParameters),
    multiValueQueryStringParameters,
    pathParameters: request.pathParameters ?? null,
    stageVariables: null,
    ...bodyField(request.body),
    requestContext: {
      accountId: request.accountId ?? '',
      apiId: 'local',
      authorizer: request.authorizer ?? null,
      domainName: 'localhost',
      extendedRequestId: requestId,
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp ?? '127.0.0.1',
        user: null,
        userAgent: headerPairs.find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? null,
        userArn: null,
      },
      path: `${BASE_PATH}${request.path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: new Date(now).toUTCString(),
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: request.resource,
      stage: STAGE_NAME,
    },
  };
}
