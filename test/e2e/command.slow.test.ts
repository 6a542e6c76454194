// `npm run test:e2e` (scripts/e2e.ts) as the deploy workflow runs it: its target named by --base-url
// or by --stage (the ApiUrl output in cdk-outputs.<stage>.json, real files in the test's own working
// directory). An argument error stops it with one line and exit code 2 before jest starts; a target
// that does not answer or refuses the key, with one line and exit code 1 after one request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { E2E_JEST_ARGUMENTS } from '#scripts/e2e-jest.ts';
import { stageRegions } from '#scripts/stage-region.ts';
import { REPO_ROOT, temporaryProject } from '#test/support/repository.ts';
import { bannerUrl, killScripts, runNode, runScript } from '#test/support/process.ts';

afterEach(killScripts);

/** A fresh working directory holding the given files (name to content). */
const project = (files: Record<string, string> = {}) => temporaryProject(files, 'petstore-e2e-command-');

const e2e = (cwd: string, ...args: string[]) =>
  runNode([join(REPO_ROOT, 'scripts/e2e.ts'), ...args], { cwd });

/** The one line of an argument error: exit code 2, nothing else printed. */
async function expectArgumentError(cwd: string, args: string[], message: string) {
  const run = await e2e(cwd, ...args);
  expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
    code: 2,
    stdout: '',
    stderr: `petstore e2e: ${message}\n`,
  });
}

const outputs = (stack: string, values: Record<string, string>) => JSON.stringify({ [stack]: values });

describe('npm run test:e2e, its target', () => {
  it('is named by exactly one of --base-url and --stage', async () => {
    const dir = project({
      'cdk-outputs.staging.json': outputs('petstore-staging', { ApiUrl: 'https://a.example/v1' }),
    });
    await expectArgumentError(dir, ['--api-key', 'k'], '--base-url or --stage is required (see --help)');
    // PETSTORE_API_KEY is not set in the tests: the key is read from it, or from stdin.
    await expectArgumentError(
      dir,
      ['--stage', 'staging'],
      'the API key is missing: set PETSTORE_API_KEY, or pipe it in with --api-key-stdin (see --help)',
    );
    await expectArgumentError(
      dir,
      ['--base-url', 'http://127.0.0.1:3000/v1', '--stage', 'staging', '--api-key', 'k'],
      '--base-url and --stage both name the API: give one of them (see --help)',
    );
  });

  it('is a stage that npm run deploy:<stage> deploys', async () => {
    await expectArgumentError(
      project(),
      ['--stage', 'qa', '--api-key', 'k'],
      '--stage must be staging or production, not "qa"',
    );
  });

  it("is read from the stage's outputs file, else from its stack in CloudFormation", async () => {
    // Staging's file does not stand in for production's; CloudFormation is a closed port (test-env.ts).
    const dir = project({
      'cdk-outputs.staging.json': outputs('petstore-staging', { ApiUrl: 'https://a.example/v1' }),
    });
    await expectArgumentError(
      dir,
      ['--stage', 'production', '--api-key', 'k'],
      'cdk-outputs.production.json not found, and CloudFormation could not describe stack petstore-production ' +
        `in ${stageRegions().production} (connect ECONNREFUSED 127.0.0.1:9): ` +
        'deploy first (npm run deploy:production), or export an AWS_PROFILE that can read the stack',
    );
  });

  it('needs an ApiUrl output there, an https URL ending in /v1', async () => {
    const noApiUrl = project({
      'cdk-outputs.staging.json': outputs('petstore-staging', { TableName: 'petstore-staging' }),
    });
    await expectArgumentError(
      noApiUrl,
      ['--stage', 'staging', '--api-key', 'k'],
      "No ApiUrl output in cdk-outputs.staging.json: deploy again (npm run deploy:staging) to write this version's outputs",
    );
    const notJson = project({ 'cdk-outputs.staging.json': '{"petstore-staging": ' });
    await expectArgumentError(
      notJson,
      ['--stage', 'staging', '--api-key', 'k'],
      'cdk-outputs.staging.json is not the outputs of cdk deploy: deploy again (npm run deploy:staging)',
    );
    const badUrl = project({
      'cdk-outputs.staging.json': outputs('petstore-staging', { ApiUrl: 'https://a.example/v2' }),
    });
    await expectArgumentError(
      badUrl,
      ['--stage', 'staging', '--api-key', 'k'],
      'ApiUrl in cdk-outputs.staging.json must be an https URL ending in /v1 (plain http only to localhost, 127.0.0.1 or [::1]), not "https://a.example/v2"',
    );
  });

  it("runs the suite against the stage's ApiUrl, with the key", async () => {
    // A stand-in for the deployed API that records what reaches it and answers every request 404:
    // the suite then fails, and what matters here is where its requests went.
    // Its first request, the command's check that the API answers and takes the key, gets a page.
    const seen: { url: string; authorization: string }[] = [];
    const standIn = createServer((request, response) => {
      seen.push({ url: request.url ?? '', authorization: request.headers.authorization ?? '' });
      const first = seen.length === 1;
      response.writeHead(first ? 200 : 404, { 'content-type': 'application/json' });
      response.end(first ? '[]' : '{"code":"not_found","message":"Not found","status":404}');
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`;
    const dir = project({
      'cdk-outputs.staging.json': outputs('petstore-staging', { ApiUrl: 'https://staging.invalid/v1' }),
      'cdk-outputs.production.json': outputs('petstore-production', {
        TableName: 'petstore-production',
        ApiUrl: baseUrl,
      }),
    });
    try {
      const run = await e2e(dir, '--stage', 'production', '--api-key', 'psk_stand_in', '--read-only');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`the API at ${baseUrl}, read-only`);
      expect(seen).toContainEqual({
        url: expect.stringMatching(/^\/v1\/pets/),
        authorization: 'Bearer psk_stand_in',
      });
    } finally {
      await new Promise((resolve) => standIn.close(resolve));
    }
  }, 120_000);

  it("runs jest on remote.e2e.ts alone, without npm test's global setup (its DynamoDB)", async () => {
    const run = await runNode([...E2E_JEST_ARGUMENTS, '--showConfig'], { cwd: REPO_ROOT });
    const { configs } = JSON.parse(run.stdout) as {
      configs: {
        displayName?: { name: string };
        globalSetup?: string;
        globalTeardown?: string;
        testMatch: string[];
      }[];
    };
    // --showConfig lists every project; the run is only the one selected.
    const selected = E2E_JEST_ARGUMENTS[E2E_JEST_ARGUMENTS.indexOf('--selectProjects') + 1];
    expect(configs.filter((config) => config.displayName?.name === selected)).toEqual([
      expect.objectContaining({
        globalSetup: '',
        globalTeardown: '',
        testMatch: [join(REPO_ROOT, 'test/e2e/remote.e2e.ts')],
      }),
    ]);
  });
});

describe('npm run test:e2e, before the suite', () => {
  /** The one line of a target that cannot be tested: exit code 1, nothing else printed. */
  async function expectStop(args: string[], message: string) {
    const run = await e2e(project(), ...args);
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `petstore e2e: ${message}\n`,
    });
  }

  it('stops in one line when nothing answers at the base URL', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    await expectStop(
      ['--base-url', baseUrl, '--api-key', 'k'],
      `the API at ${baseUrl} does not answer (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });

  it('stops in one line when the API refuses the key', async () => {
    const server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_API_KEY: 'k_right' });
    const baseUrl = `${await bannerUrl(server)}/v1`;
    await expectStop(
      ['--base-url', baseUrl, '--api-key', 'k_wrong', '--read-only'],
      `the key is refused (401) by the API at ${baseUrl}: give an active key of that API in PETSTORE_API_KEY`,
    );
  });

  it('stops in one line when what answers is not the pet store API', async () => {
    const other = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<h1>Not Found</h1>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`;
    try {
      await expectStop(
        ['--base-url', baseUrl, '--api-key', 'k'],
        `the API at ${baseUrl} does not answer as the pet store API: GET ${baseUrl}/pets?limit=1 is 404 (text/html)`,
      );
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
