// `npm run probe` (scripts/probe.ts) as an operator runs it, against real servers: `npm start` with
// seeded pets and with none, `npm run start:stage -- staging`, and what a broken API answers: a refused
// key, a closed port, a 500 to every request, and a proxy in front of `npm start` that drops or adds
// a header.
import { randomBytes } from 'node:crypto';
import { createServer, request as forward } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
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
const NO_NEXT_PAGE =
  'skip next page: the store holds fewer than 2 pets (GET /v1/pets?limit=2 gave an array of 0), so there is no next page';

/** `npm run probe` to its end, its key in PETSTORE_API_KEY: exit code, the lines it printed, stderr. */
async function probe(...args: string[]) {
  return probeWith({ PETSTORE_API_KEY: apiKey }, ...args);
}

async function probeWith(env: Record<string, string>, ...args: string[]) {
  const { input, ...variables } = env;
  const run = await runNpm(['run', '--silent', 'probe', '--', ...args], {
    cwd: REPO_ROOT,
    env: variables,
    input,
  });
  return { code: run.code, lines: run.stdout.split('\n').filter(Boolean), stderr: run.stderr };
}

/** A server on a port of its own, and its base URL. */
async function listening(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
const closing = (server: Server) => new Promise((resolve) => server.close(resolve));

/** What a proxy does to an answer's headers, given the request's path from /v1 on with its query. */
type HeaderEdit = (path: string, headers: IncomingHttpHeaders) => IncomingHttpHeaders;
const unchanged: HeaderEdit = (_path, headers) => headers;
const dropping =
  (paths: RegExp, header: string): HeaderEdit =>
  (path, headers) =>
    paths.test(path)
      ? Object.fromEntries(Object.entries(headers).filter(([name]) => name !== header))
      : headers;

/** A proxy to the API at `baseUrl`, as a broken gateway: `edit()`, read at each request, is its fault. */
async function headerProxy(baseUrl: string, edit: () => HeaderEdit) {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const sent = forward(
      new URL(path, baseUrl),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, edit()(path, answer.headers));
        answer.pipe(response);
      },
    );
    request.pipe(sent);
  });
  return { url: await listening(server), close: () => closing(server) };
}

afterAll(killScripts);

/** `npm start` on a port of its own, with the probe's key and `pets` seeded pets: its base URL. */
async function localApi(pets: number) {
  const started = runScript('local/start.ts', [], {
    PORT: '0',
    PETSTORE_API_KEY: apiKey,
    PETSTORE_SEED: String(pets),
  });
  return `${await bannerUrl(started)}/v1`;
}

describe('npm run probe, against npm start', () => {
  let baseUrl = '';
  beforeAll(async () => {
    // Three pets to start with: a next page, and one of each status.
    baseUrl = await localApi(3);
  });

  it('passes every step, creating and replaying with --creates', async () => {
    expect(await probe('--base-url', baseUrl, '--creates')).toEqual({
      code: 0,
      lines: passed(EVERY_STEP),
      stderr: '',
    });
  });

  it('reads the key from stdin with --api-key-stdin', async () => {
    expect(
      await probeWith(
        { PETSTORE_API_KEY: '', input: `${apiKey}\n` },
        '--base-url',
        baseUrl,
        '--api-key-stdin',
      ),
    ).toMatchObject({
      code: 0,
      stderr: '',
    });
  });

  it('fails each step in one line when the key is refused, printing no key', async () => {
    const run = await probe('--base-url', `${baseUrl}/`, '--api-key', WRONG_KEY);
    expect(run).toEqual({
      code: 1,
      lines: [
        'FAIL list pets: GET /v1/pets?limit=1: expected 200 with an array of at most 1 pet, got 401 unauthorized',
        'skip next page: needs list pets',
        'FAIL status filter: GET /v1/pets?status=available&limit=1: expected 200 with an array of available pets, got 401 unauthorized',
        'skip get pet: needs list pets',
      ],
      stderr: '',
    });
    expect(JSON.stringify(run)).not.toContain(WRONG_KEY);
  });

  describe('behind a proxy that drops a header', () => {
    let editing = unchanged;
    let proxy: Awaited<ReturnType<typeof headerProxy>>;
    beforeAll(async () => {
      proxy = await headerProxy(baseUrl, () => editing);
    });
    afterAll(() => proxy.close());

    it("fails getPet's step alone, naming the Deprecation header it lost", async () => {
      editing = dropping(/^\/v1\/pets\/\d+$/, 'deprecation');
      const { code, lines } = await probe('--base-url', proxy.url);
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

    it("fails the next page's step alone when the list lost its Link header, as ?limit=2 tells", async () => {
      editing = dropping(/^\/v1\/pets\?limit=1$/, 'link');
      const { code, lines } = await probe('--base-url', proxy.url);
      expect({ code, lines }).toEqual({
        code: 1,
        lines: [
          'ok   list pets',
          'FAIL next page: GET /v1/pets?limit=1: expected a Link header </v1/pets?...>; rel="next", got none, though GET /v1/pets?limit=2 gave 2 pets',
          'ok   status filter',
          'ok   get pet',
        ],
      });
    });
  });
});

describe('npm run probe, against an empty npm start', () => {
  let baseUrl = '';
  let editing = unchanged;
  let proxy: Awaited<ReturnType<typeof headerProxy>>;
  beforeAll(async () => {
    // No pets, as on a new stage whose probe never creates one.
    baseUrl = await localApi(0);
    proxy = await headerProxy(baseUrl, () => editing);
  });
  afterAll(() => proxy.close());

  it('passes, skipping the next page, and asks getPet for a pet that is not there', async () => {
    expect(await probe('--base-url', baseUrl)).toEqual({
      code: 0,
      lines: [...passed(['list pets']), NO_NEXT_PAGE, ...passed(['status filter', 'get pet'])],
      stderr: '',
    });
  });

  it('fails an empty first page that links to a next page', async () => {
    editing = (path, headers) =>
      path === '/v1/pets?limit=1'
        ? { ...headers, link: '</v1/pets?limit=1&cursor=past-the-end>; rel="next"' }
        : headers;
    const { code, lines } = await probe('--base-url', proxy.url);
    expect({ code, lines }).toEqual({
      code: 1,
      lines: [
        'ok   list pets',
        'FAIL next page: GET /v1/pets?limit=1: expected no Link rel="next" on an empty page, got Link: </v1/pets?limit=1&cursor=past-the-end>; rel="next"',
        ...passed(['status filter', 'get pet']),
      ],
    });
  });

  it("fails getPet's 404 when it lost its Deprecation header", async () => {
    editing = dropping(/^\/v1\/pets\/\d+$/, 'deprecation');
    const { code, lines } = await probe('--base-url', proxy.url);
    expect({ code, lines }).toEqual({
      code: 1,
      lines: [
        'ok   list pets',
        NO_NEXT_PAGE,
        'ok   status filter',
        'FAIL get pet: GET /v1/pets/9007199254740991: expected header Deprecation: @1767225600, got none',
      ],
    });
  });

  // Last: the run's reads come before its create, but it leaves the store with a pet.
  it('passes with --creates too, creating and replaying', async () => {
    expect(await probe('--base-url', baseUrl, '--creates')).toEqual({
      code: 0,
      lines: [
        ...passed(['list pets']),
        NO_NEXT_PAGE,
        ...passed(['status filter', 'get pet', 'create pet', 'replay create']),
      ],
      stderr: '',
    });
  });
});

describe('npm run probe, against what is not a healthy API', () => {
  it('says it could not connect to a port where nothing listens', async () => {
    const closed = createServer();
    const baseUrl = await listening(closed);
    await closing(closed);
    const { code, lines } = await probe('--base-url', baseUrl, '--creates');
    expect({ code, lines }).toEqual({
      code: 1,
      lines: [
        'FAIL list pets: GET /v1/pets?limit=1: could not connect (ECONNREFUSED)',
        'skip next page: needs list pets',
        'FAIL status filter: GET /v1/pets?status=available&limit=1: could not connect (ECONNREFUSED)',
        'skip get pet: needs list pets',
        'FAIL create pet: POST /v1/pets: could not connect (ECONNREFUSED)',
        'skip replay create: needs create pet',
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
      const { code, lines } = await probe('--base-url', baseUrl);
      expect({ code, lines }).toEqual({
        code: 1,
        lines: [
          'FAIL list pets: GET /v1/pets?limit=1: expected 200 with an array of at most 1 pet, got 500 internal_error',
          'skip next page: needs list pets',
          'FAIL status filter: GET /v1/pets?status=available&limit=1: expected 200 with an array of available pets, got 500 internal_error',
          'skip get pet: needs list pets',
        ],
      });
    } finally {
      await closing(failing);
    }
  });

  it('stops a bad command line with one line and the usage, exit code 2, printing no key', async () => {
    const usage =
      'usage: PETSTORE_API_KEY=<key> npm run probe -- --base-url <url> [--api-key-stdin] [--creates]';
    const rule = 'an https URL ending in /v1 (plain http only to localhost, 127.0.0.1 or [::1])';
    for (const url of ['ftp://127.0.0.1/v1', 'http://api.example.com/v1', 'http://10.0.0.1:3000/v1'])
      expect(await probe('--base-url', url)).toEqual({
        code: 2,
        lines: [],
        stderr: `petstore probe: --base-url must be ${rule}, not "${url}"\n${usage}\n`,
      });
    for (const [env, args] of [
      [{ PETSTORE_API_KEY: '' }, []],
      [{ PETSTORE_API_KEY: 'x', input: '' }, ['--api-key-stdin']],
    ] as [Record<string, string>, string[]][]) {
      expect(await probeWith(env, '--base-url', 'http://127.0.0.1:3000/v1', ...args)).toEqual({
        code: 2,
        lines: [],
        stderr: `petstore probe: the API key is missing: set PETSTORE_API_KEY, or pipe it in with --api-key-stdin\n${usage}\n`,
      });
    }
    expect(
      await probeWith({ PETSTORE_API_KEY: `${apiKey} x` }, '--base-url', 'http://[::1]:3000/v1'),
    ).toEqual({
      code: 2,
      lines: [],
      stderr: `petstore probe: the API key must be one word: no spaces\n${usage}\n`,
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
    expect(await probe('--base-url', baseUrl, '--creates')).toEqual({
      code: 0,
      lines: passed(EVERY_STEP),
      stderr: '',
    });
  }, 60_000);
});
