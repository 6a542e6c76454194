// The contract suite (contract-suite.ts) against the API the environment names: a deployed stage over
// HTTPS, its local emulation or `npm start`. Named .e2e.ts so that `npm test` (testMatch
// test/**/*.test.ts) never picks it up: it needs a running API and its key. `npm run test:e2e`
// (scripts/e2e.ts) checks its arguments and sets the variables below.
import { describe } from '@jest/globals';
import { defineContractSuite } from '#test/e2e/contract-suite.ts';
import type { E2eTarget } from '#test/e2e/client.ts';

/**
 * The target, from these variables; run by hand, a missing or bad one stops the file with one message.
 *   PETSTORE_E2E_BASE_URL   http(s) URL ending in /v1
 *   PETSTORE_E2E_API_KEY    an active key of that API
 *   PETSTORE_E2E_READ_ONLY  'true' (send only requests that change nothing) or 'false'
 */
function targetFromEnvironment(env: NodeJS.ProcessEnv): E2eTarget {
  const wrong = (what: string) =>
    new Error(
      `${what}: run the suite with PETSTORE_API_KEY=<key> npm run test:e2e -- --base-url <url> [--read-only]`,
    );
  const baseUrl = (env.PETSTORE_E2E_BASE_URL ?? '').replace(/\/$/, '');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?\/v1$/.test(baseUrl)) {
    throw wrong(`PETSTORE_E2E_BASE_URL must be an http(s) URL ending in /v1, not "${baseUrl}"`);
  }
  const apiKey = env.PETSTORE_E2E_API_KEY ?? '';
  if (!/^\S+$/.test(apiKey)) throw wrong('PETSTORE_E2E_API_KEY must be an API key');
  const readOnly = env.PETSTORE_E2E_READ_ONLY;
  if (readOnly !== 'true' && readOnly !== 'false') {
    throw wrong(`PETSTORE_E2E_READ_ONLY must be 'true' or 'false', not "${readOnly ?? ''}"`);
  }
  // A deployed stage's limits are its own: the suite checks the RateLimit-Policy's form alone.
  return { baseUrl, apiKey, readOnly: readOnly === 'true', keyLimits: undefined };
}

const target = targetFromEnvironment(process.env);

describe(`the API at ${target.baseUrl}${target.readOnly ? ', read-only' : ''}`, () => {
  defineContractSuite(() => target);
});
