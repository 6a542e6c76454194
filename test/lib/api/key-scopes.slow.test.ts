// API keys' scope and expiry against what each stack builds: the policy the authorizer returns for a
// read-only key, decided the way API Gateway decides it for every method of the template, with the
// 403 it then answers; and the expiry path: refused as 401, cached at most the authorizer's TTL.
import { describe, expect, test } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { evaluatePolicy } from '#local/iam/policy.ts';
import type { PolicyStatement } from '#local/iam/policy.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { STAGE_NAME } from '#shared/http/routes.ts';
import type { ApiKeyTerms } from '#shared/store/api-key-store.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import { methodsByPath, templateJson } from '#test/lib/templates.ts';
import { testApiKeys, testFunctions } from '#test/support/test-table.ts';

const API_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123';
/** What API Gateway puts for ANY in a request's method ARN: the method the client sent. */
const CLIENT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** The ARN API Gateway asks the authorizer about for this method and path ({proxy+} as a path). */
const methodArn = (httpMethod: string, path: string) =>
  `${API_ARN}/${STAGE_NAME}/${httpMethod}${path.replace(/\{[^}]+\}/g, '42')}`;

const authorizeFor = async (terms: ApiKeyTerms, httpMethod: string, path: string) => {
  const { key } = await testApiKeys.issue('template checks', terms);
  const event = {
    type: 'TOKEN' as const,
    authorizationToken: `Bearer ${key}`,
    methodArn: methodArn(httpMethod, path),
  };
  return (await testFunctions.authorizer(event, lambdaContext())) as APIGatewayAuthorizerResult;
};

/** Every request the template's methods can receive, as [method, path]. */
const requestsOf = (stage: SynthesizedStage) =>
  methodsByPath(stage).flatMap(({ httpMethod, path }) =>
    (httpMethod === 'ANY' ? CLIENT_METHODS : [httpMethod]).map((method) => [method, path] as const),
  );

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const responses = new Map(
    stage
      .all('AWS::ApiGateway::GatewayResponse')
      .map(([, { Properties }]) => [Properties.ResponseType, Properties]),
  );
  const [, authorizer] = stage.only('AWS::ApiGateway::Authorizer');

  describe('a read-only key', () => {
    test('its one policy, whatever method was asked first, allows exactly the GET requests of every method', async () => {
      const requests = requestsOf(stage);
      expect(requests.length).toBeGreaterThan(CLIENT_METHODS.length);
      for (const [firstMethod, firstPath] of [requests[0], requests.at(-1)].map((request) =>
        defined(request, 'a request'),
      )) {
        const { policyDocument } = await authorizeFor({ scope: 'read-only' }, firstMethod, firstPath);
        const allowed = requests.map(([method, path]) => {
          const decision = evaluatePolicy(policyDocument.Statement as PolicyStatement[], {
            action: 'execute-api:Invoke',
            resource: methodArn(method, path),
            context: {},
          });
          return [method, path, decision.allowed];
        });
        expect(allowed).toEqual(requests.map(([method, path]) => [method, path, method === 'GET']));
      }
    });

    test('is answered 403 forbidden, saying it is read-only, for the requests its policy does not allow', () => {
      const denied = defined(responses.get('ACCESS_DENIED'), 'ACCESS_DENIED');
      expect(denied.StatusCode).toBe('403');
      expect(templateJson(denied.ResponseTemplates)).toEqual({
        code: 'forbidden',
        message: expect.stringMatching(/read-only/),
        status: 403,
      });
    });
  });

  describe('an expired key', () => {
    test('is refused with exactly "Unauthorized", which the stack answers 401 unauthorized', async () => {
      await expect(
        authorizeFor({ expiresAt: new Date(Date.now() - 1).toISOString() }, 'GET', '/pets'),
      ).rejects.toThrow(/^Unauthorized$/);
      const unauthorized = defined(responses.get('UNAUTHORIZED'), 'UNAUTHORIZED');
      expect(unauthorized.StatusCode).toBe('401');
      expect(templateJson(unauthorized.ResponseTemplates)).toMatchObject({
        code: 'unauthorized',
        status: 401,
      });
    });

    test("passes at most the authorizer's cache TTL after it expires: the stage's setting", () => {
      expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBe(stage.settings.authorizerCacheSeconds);
    });

    test('keeps no way in through its usage-plan key: API Gateway takes the key only from the authorizer', () => {
      const [, api] = stage.only('AWS::ApiGateway::RestApi');
      expect(api.Properties.ApiKeySourceType).toBe('AUTHORIZER');
      expect(stage.all('AWS::ApiGateway::ApiKey')).toEqual([]);
    });
  });
});
