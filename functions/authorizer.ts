// TOKEN authorizer: `Authorization: Bearer <key>` (scheme in any case, key as sent). An unknown,
// revoked or expired key throws exactly "Unauthorized", which API Gateway answers as 401. The policy
// names every method of the stage its scope allows, never the one asked, so one cached result answers
// every route; the key's hash goes back as the usage identifier, for the usage plan's per-key limits.
import middy from '@middy/core';
import { lambdaHandler } from '#functions/lambda-environment.ts';
import type { FunctionParts } from '#functions/lambda-environment.ts';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { MIDDY_OPTIONS } from '#shared/http/middleware.ts';
import { AUTHORIZER } from '#shared/http/routes.ts';
import type { Observability } from '#shared/observability.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import type { ApiKeyScope, ApiKeyStore } from '#shared/store/api-key-store.ts';

const BEARER = new RegExp(AUTHORIZER.validationRegex);

const bearerToken = (header: string | undefined) => BEARER.exec(header ?? '')?.[1];

/**
 * What a scope may call, of the method ARN's stage: arn:aws:execute-api:region:account:api/stage/METHOD/path
 * -> arn:aws:execute-api:region:account:api/stage/* (full) or .../stage/GET/* (read-only). A read-only
 * key's other requests match no Allow: API Gateway answers them ACCESS_DENIED, 403 `forbidden`.
 */
const SCOPE_RESOURCES: Record<ApiKeyScope, string> = { full: '*', 'read-only': 'GET/*' };

const allowedResource = (methodArn: string, scope: ApiKeyScope) =>
  `${methodArn.split('/').slice(0, 2).join('/')}/${SCOPE_RESOURCES[scope]}`;

export type AuthorizerDependencies = { apiKeys: ApiKeyStore; observability: Observability };

export function createAuthorizerHandler({ apiKeys, observability }: AuthorizerDependencies) {
  async function authorize(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
    const token = bearerToken(event.authorizationToken);
    const apiKey = token === undefined ? undefined : await apiKeys.findActive(token);
    if (!apiKey) {
      observability.metrics.count('AuthFailures');
      throw new Error('Unauthorized');
    }
    return {
      principalId: apiKey.id,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'execute-api:Invoke',
            Effect: 'Allow',
            Resource: allowedResource(event.methodArn, apiKey.scope),
          },
        ],
      },
      context: { apiKeyId: apiKey.id, scope: apiKey.scope },
      usageIdentifierKey: apiKey.hash,
    };
  }
  return middy(authorize, MIDDY_OPTIONS).use(observability.observeInvocations());
}

export const composeAuthorizer = ({ table, observability }: FunctionParts) =>
  createAuthorizerHandler({ apiKeys: createApiKeyStore(table), observability });

export const handler = lambdaHandler('authorizer', composeAuthorizer);
