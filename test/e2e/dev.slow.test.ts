// The end-to-end contract suite (contract-suite.ts) against `npm run dev`: the same API as
// `npm start`, each request passed over IPC to the worker that runs the sources, which a save
// replaces (test/local/dev/reloader.slow.test.ts edits files; this run edits none).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from '@jest/globals';
import { defineContractSuite } from '#test/e2e/contract-suite.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

afterAll(killScripts);

describe('npm run dev', () => {
  const apiKey = `psk_e2e_${randomBytes(24).toString('base64url')}`;
  const server = { baseUrl: '' };
  beforeAll(async () => {
    const started = runScript('local/dev.ts', [], { PORT: '0', PETSTORE_API_KEY: apiKey });
    server.baseUrl = `${await bannerUrl(started)}/v1`;
  });
  defineContractSuite(() => ({ ...server, apiKey, readOnly: false, keyLimits: null }));
});
