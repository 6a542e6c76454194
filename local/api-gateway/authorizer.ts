// API Gateway's TOKEN authorizer step: the identity header checked against the validation
// expression (401 without calling the function), the function's result cached by token for the
// authorizer's TTL (so a revoked key keeps working until its cached policy expires, as in AWS),
// and the returned policy evaluated against the request's method ARN.
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { TokenAuthorizerDefinition } from '#local/api-gateway/definition.ts';
import type { FunctionRunner } from '#local/lambda/runner.ts';
import { evaluatePolicy } from '#local/iam/policy.ts';
import type { PolicyStatement } from '#local/iam/policy.ts';

export type Authorization =
  | { denied: 'UNAUTHORIZED' | 'ACCESS_DENIED' | 'AUTHORIZER_FAILURE' | 'AUTHORIZER_CONFIGURATION_ERROR' }
  | {
      denied?: undefined;
      /** requestContext.authorizer of the proxy event: the result's context and its principalId. */
      context: Record<string, string>;
      usageIdentifierKey: string | undefined;
    };

type CachedResult = { expiresAt: number; result: APIGatewayAuthorizerResult };

/** A result API Gateway can use: a principal and a policy with statements. */
function isAuthorizerResult(result: unknown): result is APIGatewayAuthorizerResult {
  const candidate = result as Partial<APIGatewayAuthorizerResult> | undefined;
  return typeof candidate?.principalId === 'string' && Array.isArray(candidate.policyDocument?.Statement);
}

export function createGatewayAuthorizer(
  definition: TokenAuthorizerDefinition,
  functions: FunctionRunner,
  now: () => number = Date.now,
) {
  const validIdentity = new RegExp(definition.validationRegex);
  const cache = new Map<string, CachedResult>();

  async function resultFor(token: string, methodArn: string, requestId: string) {
    const cached = cache.get(token);
    if (cached && cached.expiresAt > now()) return cached.result;
    const event = { type: 'TOKEN', authorizationToken: token, methodArn };
    const invocation = await functions.invoke(definition.functionName, event, requestId);
    if (!invocation.ok) {
      // Exactly "Unauthorized" is API Gateway's 401; any other failure is a 500-class answer.
      return invocation.failure === 'error' && invocation.message === 'Unauthorized'
        ? 'UNAUTHORIZED'
        : 'AUTHORIZER_FAILURE';
    }
    if (!isAuthorizerResult(invocation.result)) return 'AUTHORIZER_CONFIGURATION_ERROR';
    if (definition.resultsCacheTtlSeconds > 0) {
      cache.set(token, {
        expiresAt: now() + definition.resultsCacheTtlSeconds * 1000,
        result: invocation.result,
      });
    }
    return invocation.result;
  }

  return async function authorize(
    identity: string | undefined,
    methodArn: string,
    requestId: string,
  ): Promise<Authorization> {
    if (identity === undefined || !validIdentity.test(identity)) return { denied: 'UNAUTHORIZED' };
    const result = await resultFor(identity, methodArn, requestId);
    if (typeof result === 'string') return { denied: result };
    const decision = evaluatePolicy(result.policyDocument.Statement as PolicyStatement[], {
      action: 'execute-api:Invoke',
      resource: methodArn,
      context: {},
    });
    if (!decision.allowed) return { denied: 'ACCESS_DENIED' };
    const context = Object.fromEntries(
      Object.entries(result.context ?? {}).map(([name, value]) => [name, String(value)]),
    );
    return {
      context: { ...context, principalId: result.principalId },
      usageIdentifierKey: result.usageIdentifierKey ?? undefined,
    };
  };
}
