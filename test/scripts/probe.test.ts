// `npm run probe` (scripts/probe.ts) as an operator runs it, against real servers: `npm start` with
// seeded pets, `npm run start:stage -- staging`, and what a broken API answers: a refused key, a closed
// port, a 500 to every request, and a proxy in front of `npm start` that drops one header.
import { randomBytes } from 'node:crypto';
import { createServer, request as forward } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runNpm } from '#test/support/npm.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import { SYNTH_TIMEOUT_MS, projectAssembly } from '#test/support/project-assembly.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

const apiKey = `psk_probe_${randomBytes(24).toString('base64url')}`;
const WRONG_KEY = `psk_wrong_${randomBytes(24).toString('base64url')}`;
const EVERY_STEP = ['list pets', 'next page', 'status filter', 'get pet', 'create pet', 'replay create'];
const passed = (steps: string[]) => steps.map((step) => `ok   ${step}`);

/** `npm run probe` to its end: exit code, the lines it printed, and stderr. */
async function probe(...args: string[]) {
  const run = await runNpm(['run', '--silent', 'probe', '--', ...args], { cwd: REPO_ROOT });
  return { code: run.code, lines: run.stdout.split('\n').filter(Boolean), stderr: run.stderr };
}

/** A server on a port of its own, and its base URL. */
async function listening(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
const closing = (server: Server) => new Promise((resolve) => server.close(resolve));

afterAll(killScripts);

describe('npm run probe, against npm start', () => {
  let baseUrl = '';
  beforeAll(async () => {
    // Three pets to start with: a next page, and one of each status.
    const started = runScript('local/start.ts', [], {
      PORT: '0',
      PETSTORE_API_KEY: apiKey,
      PETSTORE_SEED: '3',
    });
    baseUrl = `${await bannerUrl(started)}/v1`;
  });

  it('passes every step, creating and replaying with --creates', async () => {
    expect(await probe('--base-url', baseUrl, '--api-key', apiKey, '--creates')).toEqual({
      code: 0,
      lines: passed(EVERY_STEP),
      stderr: '',
    });
  });

  it('fails each step in one line when the key is refused, printing no key', async () => {
    const run = await probe('--base-url', `${baseUrl}/`, '--api-key', WRONG_KEY);
    expect(run).toEqual({
      code: 1,
      lines: [
        'FAIL list pets: GET /v1/pets?limit=1: expected 200 with an array of 1 pet (the store needs 2 pets or more), got 401 unauthorized',
        'FAIL next page: skipped: needs list pets',
        'FAIL status filter: GET /v1/pets?status=available&limit=1: expected 200 with an array of available pets, got 401 unauthorized',
        'FAIL get pet: skipped: needs list pets',
      ],
      stderr: '',
    });
    expect(JSON.stringify(run)).not.toContain(WRONG_KEY);
  });

  describe('behind a proxy that drops a header', () => {
    /** Which responses lose which header: a request's path, and the header's name. */
    let dropping = { path: /^$/, header: '' };
    const proxy = createServer((request, response) => {
      const upstream = new URL(request.url ?? '/', baseUrl);
      const sent = forward(upstream, { method: request.method, headers: request.headers }, (answer) => {
        const dropped = dropping.path.test(request.url ?? '') ? dropping.header : undefined;
        const headers = Object.entries(answer.headers).filter(([name]) => name !== dropped);
        response.writeHead(answer.statusCode ?? 502, Object.fromEntries(headers));
        answer.pipe(response);
      });
      request.pipe(sent);
    });
    let proxyUrl = '';
    beforeAll(async () => {
      proxyUrl = await listening(proxy);
    });
    afterAll(() => closing(proxy));

    it("fails getPet's step alone, naming the Deprecation header it lost", async () => {
      dropping = { path: /^\/v1\/pets\/\d+$/, header: 'deprecation' };
      const { code, lines } = await probe('--base-url', proxyUrl, '--api-key', apiKey);
      expect({ code, lines }).toEqual({
        code: 1,
        lines: [
          ...passed(['list pets', 'next page', 'status filter']),
          expect.stringMatching(
            /^FAIL get pet: GET \/v1\/pets\/\d+: expected header Deprecation: @1767225600, got none$/,
          ),
        ],
      });
    });

    it("fails the next page's step alone when the list lost its Link header", async () => {
      dropping = { path: /^\/v1\/pets\?limit=1$/, header: 'link' };
      const { code, lines } = await probe('--base-url', proxyUrl, '--api-key', apiKey);
      expect({ code, lines }).toEqual({
        code: 1,
        lines: [
          'ok   list pets',
          'FAIL next page: GET /v1/pets?limit=1: expected a Link header </v1/pets?...>; rel="next" (the store needs 2 pets or more), got none',
          'ok   status filter',
          'ok   get pet',
        ],
      });
    });
  });
});

describe('npm run probe, against what is not a healthy API', () => {
  it('says it could not connect to a port where nothing listens', async () => {
    const closed = createServer();
    const baseUrl = await listening(closed);
    await closing(closed);
    const { code, lines } = await probe('--base-url', baseUrl, '--api-key', apiKey, '--creates');
    expect({ code, lines }).toEqual({
      code: 1,
      lines: [
        'FAIL list pets: GET /v1/pets?limit=1: could not connect (ECONNREFUSED)',
        'FAIL next page: skipped: needs list pets',
        'FAIL status filter: GET /v1/pets?status=available&limit=1: could not connect (ECONNREFUSED)',
        'FAIL get pet: skipped: needs list pets',
        'FAIL create pet: POST /v1/pets: could not connect (ECONNREFUSED)',
        'FAIL replay create: skipped: needs create pet',
      ],
    });
  });

  it("names the Error's code of an API that answers 500", async () => {
    const failing = createServer((_request, response) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end('{"code":"internal_error","message":"Internal server error","status":500}');
    });
    const baseUrl = await listening(failing);
    try {
      const { code, lines } = await probe('--base-url', baseUrl, '--api-key', apiKey);
      expect({ code, lines }).toEqual({
        code: 1,
        lines: [
          'FAIL list pets: GET /v1/pets?limit=1: expected 200 with an array of 1 pet (the store needs 2 pets or more), got 500 internal_error',
          'FAIL next page: skipped: needs list pets',
          'FAIL status filter: GET /v1/pets?status=available&limit=1: expected 200 with an array of available pets, got 500 internal_error',
          'FAIL get pet: skipped: needs list pets',
        ],
      });
    } finally {
      await closing(failing);
    }
  });

  it('stops a bad command line with one line and the usage, exit code 2, printing no key', async () => {
    const usage = 'usage: npm run probe -- --base-url <url> --api-key <key> [--creates]';
    expect(await probe('--base-url', 'ftp://127.0.0.1/v1', '--api-key', apiKey)).toEqual({
      code: 2,
      lines: [],
      stderr: `petstore probe: --base-url must be an http(s) URL ending in /v1, not "ftp://127.0.0.1/v1"\n${usage}\n`,
    });
    expect(await probe('--base-url', 'http://127.0.0.1:3000/v1')).toEqual({
      code: 2,
      lines: [],
      stderr: `petstore probe: --api-key is required\n${usage}\n`,
    });
    expect(await probe('--base-url', 'http://127.0.0.1:3000/v1', '--api-key', `${apiKey} x`)).toEqual({
      code: 2,
      lines: [],
      stderr: `petstore probe: --api-key must be an API key: not empty, no spaces\n${usage}\n`,
    });
  });
});

describe('npm run probe, against npm run start:stage -- staging', () => {
  let baseUrl = '';
  beforeAll(async () => {
    // Synthesized here when stale, not in the server's start-up, which the banner's wait would time.
    projectAssembly('staging');
    const started = runScript('local/start-stage.ts', ['staging'], { PORT: '0', PETSTORE_API_KEY: apiKey });
    baseUrl = `${await bannerUrl(started)}/v1`;
    // A stage starts empty: the probe pages through two pets.
    for (const name of ['Rex', 'Tom']) {
      const created = await fetch(`${baseUrl}/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      if (created.status !== 201) throw new Error(`POST /v1/pets: ${created.status} ${await created.text()}`);
    }
  }, SYNTH_TIMEOUT_MS);

  it("passes every step through the stage's authorizer, bundles and throttles", async () => {
    expect(await probe('--base-url', baseUrl, '--api-key', apiKey, '--creates')).toEqual({
      code: 0,
      lines: passed(EVERY_STEP),
      stderr: '',
    });
  }, 60_000);
});
