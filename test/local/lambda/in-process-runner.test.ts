// The in-process runner, with the real functions on this file's table: an invocation answers with
// the handler's result, or fails as Lambda reports a failure to API Gateway, with the error's
// message ("Unauthorized" is the one API Gateway turns into 401).
import { describe, expect, it } from '@jest/globals';
import { inProcessRunner } from '#local/lambda/in-process-runner.ts';
import { testApiKeys, testFunctions } from '#test/support/test-table.ts';

const runner = inProcessRunner(testFunctions);
const METHOD_ARN = 'arn:aws:execute-api:us-east-1:123456789012:api/v1/GET/pets';

describe('the in-process runner', () => {
  it("answers with the handler's result", async () => {
    const { key, id } = await testApiKeys.issue('runner');
    const event = { type: 'TOKEN', authorizationToken: `Bearer ${key}`, methodArn: METHOD_ARN };
    expect(await runner.invoke('authorizer', event)).toMatchObject({ ok: true, result: { principalId: id } });
  });

  it("fails with the handler's error message", async () => {
    const event = { type: 'TOKEN', authorizationToken: 'Bearer psk_nobody', methodArn: METHOD_ARN };
    expect(await runner.invoke('authorizer', event)).toEqual({
      ok: false,
      failure: 'error',
      message: 'Unauthorized',
    });
  });

  it('fails for a function it does not have', async () => {
    expect(await runner.invoke('deletePet', {})).toEqual({
      ok: false,
      failure: 'error',
      message: 'No function named deletePet',
    });
  });
});
