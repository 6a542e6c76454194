// TOKEN authorizer: `Authorization: Bearer <key>` (scheme in any case, key as sent). A bad key
// throws exactly "Unauthorized", which API Gateway answers as 401. The Allow policy covers every
// method of the stage, so one cached result serves every route.
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { findActiveApiKey } from '#shared/store/api-key-store.ts';

const BEARER = /^bearer +(\S+) *$/i;

export const bearerToken = (header: string | undefined) => BEARER.exec(header ?? '')?.[1];

/** arn:aws:execute-api:region:account:api/stage/METHOD/path -> arn:aws:execute-api:region:account:api/stage/* */
const wholeStage = (methodArn: string) => methodArn.split('/').slice(0, 2).join('/') + '/*';

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const token = bearerToken(event.authorizationToken);
  const apiKey = token === undefined ? undefined : await findActiveApiKey(token);
  if (!apiKey) throw new Error('Unauthorized');
  return {
    principalId: apiKey.id,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStage(event.methodArn) }],
    },
    context: { apiKeyId: apiKey.id },
  };
}
