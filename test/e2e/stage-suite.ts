// The end-to-end contract suite (contract-suite.ts) against one stage as `cdk deploy` would ship it:
// `npm run start:stage -- <stage>` serves the synthesized template and its bundles (cdk.out, synthesized
// when stale), with the stage's authorizer cache, throttling and usage plan; on staging, the client's
// burst too. Each stage has a test file of its own, so that jest runs the two side by side.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPetStoreClient } from '#client/src/index.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { KeyLimits } from '#shared/http/rate-limit-policy.ts';
import { defineContractSuite } from '#test/e2e/contract-suite.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import { SYNTH_TIMEOUT_MS, projectAssembly } from '#test/support/project-assembly.ts';

/** The burst's reads arrive at the key's rate: four buckets' worth take three buckets' refill. */
const BURST_MS = 60_000;

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
    if (stage === 'staging') describeClientBurst(server, apiKey, keyLimits);
  });
}

/**
 * The client package against the stage's usage plan: reads sent at once, twice as many as the key's
 * bucket holds, all succeed, the client pacing itself by RateLimit-Policy instead of meeting 429s.
 */
function describeClientBurst(server: { baseUrl: string }, apiKey: string, { burstLimit }: KeyLimits) {
  it(
    `the client package paces ${burstLimit * 4} reads sent at once past the key's limit: every one succeeds`,
    async () => {
      // A fresh bucket: the suite before spent this key's.
      await sleep((burstLimit / STAGE_SETTINGS.staging.perKeyLimits.rateLimit + 1) * 1000);
      let throttledOnWire = 0;
      const client = createPetStoreClient({
        baseUrl: server.baseUrl,
        apiKey,
        fetch: async (request: Request) => {
          const response = await fetch(request);
          if (response.status === 429) throttledOnWire += 1;
          return response;
        },
      });
      const reads = await Promise.all(
        Array.from({ length: burstLimit * 4 }, () =>
          client.GET('/pets', { params: { query: { limit: 1 } } }),
        ),
      );
      expect(reads.map(({ response }) => response.status)).toEqual(Array(burstLimit * 4).fill(200));
      expect(throttledOnWire).toBeLessThanOrEqual(1);
    },
    BURST_MS,
  );
}
