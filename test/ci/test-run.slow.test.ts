// `npm test` leaves nothing behind, and keeps out of the way of the servers the user runs beside
// it: a test file run as npm test runs it (test/ci/test-run.fixture.ts) leaves no temporary
// directory in the system's temporary directory, and its servers, even one killed hard, leave no
// record in the checkout's `.petstore/servers/` (where `npm run keys` looks for the user's).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { REPO_ROOT } from '#test/support/repository.ts';

/** Jest on the fixture, with `dir` as the temporary directory of the whole run. */
function runFixture(dir: string): Promise<{ code: number | null; output: string }> {
  // As in a user's shell: none of this test run's own temporary directory or server records.
  const { PETSTORE_SERVERS_DIR: _records, ...inherited } = process.env;
  const jest = [
    '--experimental-vm-modules',
    '--disable-warning=ExperimentalWarning',
    join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--ci',
    '--selectProjects',
    'slow',
    '--testMatch',
    '<rootDir>/test/ci/test-run.fixture.ts',
    // Jest's cache, which is not the run's, goes outside the directory under watch.
    '--cacheDirectory',
    join(tmpdir(), 'test-run-jest-cache'),
  ];
  const child = spawn(process.execPath, jest, {
    cwd: REPO_ROOT,
    env: { ...inherited, TMPDIR: dir, TEMP: dir, TMP: dir },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

it('leaves no temporary directory and no server record in the checkout, even after a hard kill', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'system-tmp-'));
  const { code, output } = await runFixture(dir);
  expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('server pid') });
  const pid = /server pid (\d+)/.exec(output)?.[1];
  expect(existsSync(join(REPO_ROOT, '.petstore', 'servers', `${pid}.json`))).toBe(false);
  expect(readdirSync(dir)).toEqual([]);
}, 120_000);
