// The client as store clients get it: `npm pack ./client` (which builds it), the tarball installed
// alone into an empty project, a strict TypeScript use of it type-checked there, and a plain ESM
// one run against the real local server over HTTP.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestServer } from '#test/support/http.ts';
import { runNpm } from '#test/support/npm.ts';
import { runNode } from '#test/support/process.ts';
import type { NodeRun } from '#test/support/process.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

const CONSUMER_FIXTURES = join(REPO_ROOT, 'test/client/packed');
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

let workdir: string;
let project: string;

const readJson = (path: string): unknown => JSON.parse(readFileSync(join(project, path), 'utf8'));

function succeeded(what: string, run: NodeRun) {
  if (run.code !== 0) throw new Error(`${what} failed (exit ${run.code}):\n${run.stdout}${run.stderr}`);
}

const runInProject = (args: string[], env: Record<string, string> = {}) =>
  runNode(args, { cwd: project, env });

beforeAll(async () => {
  workdir = mkdtempSync(join(tmpdir(), 'petstore-client-'));
  succeeded(
    'npm pack ./client',
    await runNpm(['pack', './client', '--pack-destination', workdir], { cwd: REPO_ROOT }),
  );
  const tarball = readdirSync(workdir).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ./client wrote no tarball to ${workdir}`);

  project = join(workdir, 'store-client');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "store-client", "private": true, "type": "module" }\n',
  );
  // From the cache `npm ci` filled: openapi-fetch is all the tarball asks for.
  succeeded(
    'npm install <tarball>',
    await runNpm(['install', join(workdir, tarball), '--prefer-offline', '--ignore-scripts'], {
      cwd: project,
    }),
  );
  cpSync(CONSUMER_FIXTURES, project, { recursive: true });
}, 120_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

describe('npm pack ./client', () => {
  it('is a package with a name, version, license, exports and supported Node.js versions', () => {
    expect(readJson('node_modules/@petstore-api/client/package.json')).toMatchObject({
      name: '@petstore-api/client',
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      license: 'MIT',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      engines: { node: '>=22' },
      dependencies: { 'openapi-fetch': expect.any(String) },
    });
  });

  it('has a changelog entry for the version it is packed as', () => {
    const { version } = readJson('node_modules/@petstore-api/client/package.json') as { version: string };
    const headings = readFileSync(join(REPO_ROOT, 'client/CHANGELOG.md'), 'utf8')
      .split('\n')
      .filter((line) => line === `## ${version}` || line.startsWith(`## ${version} `));
    expect(headings).toHaveLength(1);
  });

  it('ships compiled JavaScript with its types, its README, changelog and license, and no sources', () => {
    const shipped = (dir: string) =>
      readdirSync(join(project, 'node_modules/@petstore-api/client', dir)).sort();
    expect(shipped('.')).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'package.json']);
    expect(shipped('dist')).toEqual([
      'api-error.d.ts',
      'api-error.js',
      'api-json.d.ts',
      'api-json.js',
      'etag-cache.d.ts',
      'etag-cache.js',
      'exact-json.d.ts',
      'exact-json.js',
      'index.d.ts',
      'index.js',
      'paced-fetch.d.ts',
      'paced-fetch.js',
      'pagination.d.ts',
      'pagination.js',
      'rate-limit-policy.d.ts',
      'rate-limit-policy.js',
      'retry-policy.d.ts',
      'retry-policy.js',
      'retrying-fetch.d.ts',
      'retrying-fetch.js',
      'revalidating-fetch.d.ts',
      'revalidating-fetch.js',
      'schema.d.ts',
      'schema.js',
      'structured-fields.d.ts',
      'structured-fields.js',
    ]);
  });

  it('installs alone: openapi-fetch is its only dependency, and nothing of the server comes along', () => {
    const { packages } = readJson('package-lock.json') as { packages: Record<string, unknown> };
    expect(Object.keys(packages).sort()).toEqual([
      '',
      'node_modules/@petstore-api/client',
      'node_modules/openapi-fetch',
      'node_modules/openapi-typescript-helpers',
    ]);
  });
});

describe('a store client in strict TypeScript', () => {
  // Both ways TypeScript resolves packages today: as Node.js does, and as bundlers do.
  it.each([
    { module: 'nodenext', moduleResolution: 'nodenext' },
    { module: 'esnext', moduleResolution: 'bundler' },
  ])('type-checks with module resolution $moduleResolution', async (resolution) => {
    const compilerOptions = {
      ...resolution,
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: [],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noUnusedLocals: true,
      noEmit: true,
    };
    const tsconfig = `tsconfig.${resolution.moduleResolution}.json`;
    writeFileSync(join(project, tsconfig), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    expect(await runInProject([TSC, '--project', tsconfig])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('a store client in plain ESM JavaScript', () => {
  let run: NodeRun;
  let report: {
    walk?: { names: string[]; requests: number };
    lostCreate?: { status: number; replayed: string | null; keys: string[]; named: number };
    retryAfterZero?: { status: number; requests: number };
  };

  beforeAll(async () => {
    const server = await startTestServer();
    try {
      run = await runInProject(['consumer.mjs'], {
        PETSTORE_BASE_URL: `${server.url}/v1`,
        PETSTORE_API_KEY: server.apiKey,
      });
      report = run.code === 0 ? JSON.parse(run.stdout) : {};
    } finally {
      await server.close();
    }
  }, 60_000);

  it('runs to the end, saying nothing on stderr', () => {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('creates with the largest categoryId, reads it back exactly, walks pages and gets a typed 404', () => {
    const biggest = {
      id: expect.any(Number),
      name: 'Biggest',
      categoryId: '9223372036854775807n',
      status: 'available',
    };
    expect(report).toMatchObject({
      created: biggest,
      readBack: biggest,
      readBackIsExact: true,
      pages: [['Biggest', 'Bella'], ['Coco', 'Luna'], ['Milo']],
      missing: {
        status: 404,
        data: null,
        error: { code: 'not_found', message: expect.any(String), status: 404 },
      },
    });
  });

  it('walks 45 animals with listAllPets in pages of 20: each once, each page asked once', () => {
    const names = Array.from({ length: 45 }, (_, n) => `Pending ${n + 1}`);
    expect(report.walk?.names.toSorted()).toEqual(names.toSorted());
    expect(report.walk?.requests).toBe(3);
  });

  it('replays a create whose answer became a 503 after the server made it: one new animal', () => {
    const { keys = [], ...create } = report.lostCreate ?? {};
    expect(create).toEqual({ status: 201, replayed: 'true', named: 1 });
    expect(keys).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), keys[0]]);
  });

  it('returns the 200 that follows a 503 with Retry-After: 0', () => {
    expect(report.retryAfterZero).toEqual({ status: 200, requests: 2 });
  });

  it('refuses, with one clear error, a runtime that would round big integers', async () => {
    const script =
      "delete JSON.rawJSON; const { createPetStoreClient } = await import('@petstore-api/client');" +
      "try { createPetStoreClient({ baseUrl: 'http://127.0.0.1/v1', apiKey: 'k' }); } catch (error) { console.log(error.message); }";
    const run = await runInProject(['--input-type=module', '--eval', script]);
    expect(run.stdout).toBe(
      'The Pet Store client needs JSON.rawJSON and JSON.parse source text access (Node.js 22 or later).\n',
    );
  });
});
