// TOKEN authorizer: `Authorization: Bearer <key>` (scheme in any case, key as sent). A bad key
// throws exactly "Unauthorized", which API Gateway answers as 401. The Allow policy covers every
// method of the stage, so one cached result serves every route. The key's hash goes back as the
// usage identifier: API Gateway applies the usage plan's per-key limits to it.
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { MIDDY_OPTIONS } from '#shared/http/middleware.ts';
import { AUTHORIZER } from '#shared/http/routes.ts';
import type { Observability } from '#shared/observability.ts';
import type { ApiKeyStore } from '#shared/store/api-key-store.ts';

const BEARER = new RegExp(AUTHORIZER.validationRegex);

const bearerToken = (header: string | undefined) => BEARER.exec(header ?? '')?.[1];

/**
 * The method ARN's stage, all methods: arn:aws:execute-api:region:account:api/stage/METHOD/path
 * -> arn:aws:execute-api:region:account:api/stage/*
 */
const wholeStage = (methodArn: string) => methodArn.split('/').slice(0, 2).join('/') + '/*';

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
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStage(event.methodArn) }],
      },
      context: { apiKeyId: apiKey.id },
      usageIdentifierKey: apiKey.hash,
    };
  }
  return middy(authorize, MIDDY_OPTIONS).use(observability.observeInvocations());
}
