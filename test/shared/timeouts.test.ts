// The time limits of shared/timeouts.ts agree with each other and with API Gateway's.
import { expect, it } from '@jest/globals';
import { DYNAMODB_CALL_WORST_CASE_MS, FUNCTION_TIMEOUT_SECONDS, IN_FLIGHT_MS } from '#shared/timeouts.ts';

it('gives up on DynamoDB before the function times out, and holds a claim longer than a function runs', () => {
  expect(DYNAMODB_CALL_WORST_CASE_MS).toBeLessThan(FUNCTION_TIMEOUT_SECONDS * 1000);
  expect(IN_FLIGHT_MS).toBeGreaterThan(FUNCTION_TIMEOUT_SECONDS * 1000);
  expect(FUNCTION_TIMEOUT_SECONDS).toBeLessThan(29);
});
