// The end-to-end contract suite (contract-suite.ts) against one stage as `cdk deploy` would ship it:
// `npm run start:stage -- <stage>` serves the synthesized template and its bundles (cdk.out,
// synthesized when stale by the first to ask), with the stage's authorizer cache, throttling and
// usage plan. Each stage has a test file of its own, so that jest runs the two side by side.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from '@jest/globals';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { defineContractSuite } from '#test/e2e/contract-suite.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import { SYNTH_TIMEOUT_MS, projectAssembly } from '#test/support/project-assembly.ts';

export function defineStageSuite(stage: 'staging' | 'production'): void {
  afterAll(killScripts);
  describe(`npm run start:stage -- ${stage}`, () => {
    const apiKey = `psk_e2e_${randomBytes(24).toString('base64url')}`;
    const server = { baseUrl: '' };
    beforeAll(async () => {
      // Synthesized here when stale, not in the server's start-up, which the banner's wait would time.
      projectAssembly(stage);
      const started = runScript('local/start-stage.ts', [stage], { PORT: '0', PETSTORE_API_KEY: apiKey });
      server.baseUrl = `${await bannerUrl(started)}/v1`;
    }, SYNTH_TIMEOUT_MS);
    const { perKeyLimits: keyLimits } = STAGE_SETTINGS[stage];
    defineContractSuite(() => ({ ...server, apiKey, readOnly: false, keyLimits }));
  });
}
