// The document passes Redocly's recommended ruleset (redocly.yaml) with no error, offline.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from '@jest/globals';
import { REPO_ROOT } from '#test/support/repository.ts';

const run = promisify(execFile);

type LintReport = { problems: { ruleId: string; severity: string; message: string }[] };

it('redocly lint reports no error in openapi.json', async () => {
  // redocly exits non-zero when it finds errors; its JSON report is on stdout either way.
  const { stdout } = await run(
    process.execPath,
    ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'openapi.json', '--format=json'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 20_000,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const { problems } = JSON.parse(stdout) as LintReport;
  const errors = problems.filter((problem) => problem.severity === 'error');
  expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
});
