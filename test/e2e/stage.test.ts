// The end-to-end contract suite (contract-suite.ts) against each stage as `cdk deploy` would ship
// it: `npm run start:stage -- <stage>` serves the synthesized template and its bundles (cdk.out,
// synthesized when stale by the first to ask), with the stage's authorizer cache, throttling and usage plan.
// Under staging's 5 requests a second per key, the suite's client waits out every 429.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from '@jest/globals';
import { defineContractSuite } from '#test/e2e/contract-suite.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

afterAll(killScripts);

describe.each(['staging', 'production'])('npm run start:stage -- %s', (stage) => {
  const apiKey = `psk_e2e_${randomBytes(24).toString('base64url')}`;
  const server = { baseUrl: '' };
  beforeAll(async () => {
    const started = runScript('local/start-stage.ts', [stage], { PORT: '0', PETSTORE_API_KEY: apiKey });
    server.baseUrl = `${await bannerUrl(started)}/v1`;
  });
  defineContractSuite(() => ({ ...server, apiKey, readOnly: false }));
});
