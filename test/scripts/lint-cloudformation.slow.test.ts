// `npm run lint:cloudformation` needs the AWS CloudFormation Linter, a Python tool that `npm ci`
// cannot install: without it on the PATH, the script says how to get it in one line, before it
// synthesizes anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { REPO_ROOT } from '#test/support/repository.ts';

it('stops with one line saying how to install cfn-lint when it is not on the PATH', () => {
  // An empty directory as the whole PATH, however the platform spells the variable.
  const withoutPath = Object.entries(process.env).filter(([name]) => name.toUpperCase() !== 'PATH');
  const run = spawnSync(process.execPath, ['scripts/lint-cloudformation.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...Object.fromEntries(withoutPath), PATH: mkdtempSync(join(tmpdir(), 'petstore-no-cfn-lint-')) },
  });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(
    'petstore: cfn-lint is not on the PATH: install the AWS CloudFormation Linter (pip install cfn-lint, Python 3.9 or later), then run npm run lint:cloudformation again.\n',
  );
});
