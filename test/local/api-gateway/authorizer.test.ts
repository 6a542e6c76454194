// The local gateway's TOKEN authorizer step, with the real authorizer function on this file's table:
// a token outside the validation expression is refused before the function runs, and a result is
// cached by token for the authorizer's TTL, so a revoked key keeps working until it expires, as in AWS,
// and a read-only key's one cached policy answers every route rightly, whichever came first.
import { describe, expect, it } from '@jest/globals';
import { apiDefinitionFromModules } from '#local/api-gateway/definition.ts';
import { createGatewayAuthorizer } from '#local/api-gateway/authorizer.ts';
import { inProcessRunner } from '#local/lambda/in-process-runner.ts';
import type { FunctionRunner } from '#local/lambda/runner.ts';
import { testApiKeys, testFunctions } from '#test/support/test-table.ts';

const METHOD_ARN = 'arn:aws:execute-api:us-east-1:123456789012:api/v1/GET/pets';
const TTL_SECONDS = 300;

/** The in-process runner, counting the authorizer's invocations. */
function countingRunner() {
  const runner = inProcessRunner(testFunctions);
  const counted: FunctionRunner & { calls: number } = {
    calls: 0,
    invoke: (...args) => {
      counted.calls += 1;
      return runner.invoke(...args);
    },
    close: runner.close,
  };
  return counted;
}

function authorizerWithCache() {
  let now = Date.UTC(2026, 0, 1);
  const definition = { ...apiDefinitionFromModules().authorizer, resultsCacheTtlSeconds: TTL_SECONDS };
  const runner = countingRunner();
  const authorize = createGatewayAuthorizer(definition, runner, () => now);
  return { authorize, runner, advance: (ms: number) => (now += ms) };
}

describe('the TOKEN authorizer step', () => {
  it('refuses a missing or malformed identity with 401, without calling the function', async () => {
    const { authorize, runner } = authorizerWithCache();
    expect(await authorize(undefined, METHOD_ARN, 'r1')).toEqual({ denied: 'UNAUTHORIZED' });
    expect(await authorize('Basic abc', METHOD_ARN, 'r2')).toEqual({ denied: 'UNAUTHORIZED' });
    expect(runner.calls).toBe(0);
  });

  it("caches a result by token for the TTL: a revoked key works until its policy's cache expires", async () => {
    const { authorize, runner, advance } = authorizerWithCache();
    const { key, id } = await testApiKeys.issue('authorizer-cache');
    const identity = `Bearer ${key}`;

    expect(await authorize(identity, METHOD_ARN, 'r1')).toMatchObject({ context: { principalId: id } });
    await testApiKeys.revoke(id);
    advance(TTL_SECONDS * 1000 - 1);
    expect(await authorize(identity, METHOD_ARN, 'r2')).toMatchObject({ context: { principalId: id } });
    expect(runner.calls).toBe(1);

    advance(1);
    expect(await authorize(identity, METHOD_ARN, 'r3')).toEqual({ denied: 'UNAUTHORIZED' });
    expect(runner.calls).toBe(2);
  });

  const ARN_OF = {
    listPets: METHOD_ARN,
    getPet: 'arn:aws:execute-api:us-east-1:123456789012:api/v1/GET/pets/42',
    createPet: 'arn:aws:execute-api:us-east-1:123456789012:api/v1/POST/pets',
    unknownMethod: 'arn:aws:execute-api:us-east-1:123456789012:api/v1/DELETE/pets/42',
  };
  const READ_ONLY_ANSWERS = { listPets: true, getPet: true, createPet: false, unknownMethod: false };

  it.each(Object.keys(ARN_OF) as (keyof typeof ARN_OF)[])(
    "answers every route rightly from a read-only key's one cached result, when %s comes first",
    async (first) => {
      const { authorize, runner } = authorizerWithCache();
      const { key } = await testApiKeys.issue('authorizer-read-only', { scope: 'read-only' });
      const routes = [
        first,
        ...(Object.keys(ARN_OF) as (keyof typeof ARN_OF)[]).filter((name) => name !== first),
      ];
      const answers: Record<string, boolean> = {};
      for (const route of routes) {
        const answer = await authorize(`Bearer ${key}`, ARN_OF[route], route);
        answers[route] = answer.denied === undefined;
        if (answer.denied) expect(answer).toEqual({ denied: 'ACCESS_DENIED' });
      }
      expect(answers).toEqual(READ_ONLY_ANSWERS);
      expect(runner.calls).toBe(1);
    },
  );

  it("serves an expired key's cached result until the TTL ends, like a revoked one", async () => {
    const { authorize, advance } = authorizerWithCache();
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const { key, id } = await testApiKeys.issue('authorizer-expiring', { expiresAt });
    expect(await authorize(`Bearer ${key}`, METHOD_ARN, 'r1')).toMatchObject({
      context: { principalId: id },
    });
    await testApiKeys.expire(id, new Date().toISOString());
    advance(TTL_SECONDS * 1000 - 1);
    expect(await authorize(`Bearer ${key}`, METHOD_ARN, 'r2')).toMatchObject({
      context: { principalId: id },
    });
    advance(1);
    expect(await authorize(`Bearer ${key}`, METHOD_ARN, 'r3')).toEqual({ denied: 'UNAUTHORIZED' });
  });

  it('calls the function on every request without a cache, as `npm start` runs it', async () => {
    const runner = countingRunner();
    const authorize = createGatewayAuthorizer(apiDefinitionFromModules().authorizer, runner);
    const { key } = await testApiKeys.issue('authorizer-no-cache');
    for (const requestId of ['r1', 'r2']) await authorize(`Bearer ${key}`, METHOD_ARN, requestId);
    expect(runner.calls).toBe(2);
  });
});
