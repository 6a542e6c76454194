// Every npm script is exercised by the loop, by its own command line in package.json: here, through
// npm, each one no other test runs that way (with arguments that only read), and for the others, the
// test or CI step that runs it. A script added to package.json fails here until one of them does.
import { describe, expect, it } from '@jest/globals';
import { runNpm } from '#test/support/npm.ts';
import { REPO_ROOT, readRepoFile, readRepoJson } from '#test/support/repository.ts';
import { projectAssembly } from '#test/support/project-assembly.ts';

const SCRIPTS = (readRepoJson('package.json') as { scripts: Record<string, string> }).scripts;

/** Scripts run through npm elsewhere: where, and a line of that file that shows it. */
const RUN_ELSEWHERE: Record<string, { by: string; shows: string }> = {
  test: { by: '.ci/run', shows: 'npm test' },
  typecheck: { by: 'package.json', shows: 'npm run typecheck' },
  lint: { by: 'package.json', shows: 'npm run lint' },
  jest: { by: 'package.json', shows: 'npm run jest' },
  'lint:cloudformation': { by: '.ci/run', shows: 'npm run lint:cloudformation' },
  postinstall: { by: '.ci/run', shows: 'npm ci' },
  start: {
    by: 'test/local/shutdown.slow.test.ts',
    shows: "runScript(process.env.npm_execpath ?? '', ['start']",
  },
  docs: { by: 'test/docs/api-reference.slow.test.ts', shows: "runNpm(['run', '--silent', 'docs'" },
  bench: { by: 'test/bench/scripts.slow.test.ts', shows: "runQuick('bench')" },
  soak: { by: 'test/bench/scripts.slow.test.ts', shows: "runQuick('soak')" },
  capacity: { by: 'test/bench/scripts.slow.test.ts', shows: "runQuick('capacity')" },
  // The same command, run by the first test to need cdk.out, under its lock: running it beside the
  // tests would rewrite the cloud assembly that other tests read.
  synth: { by: 'local/cloud-assembly/stage-assembly.ts', shows: "'synth', '--quiet'" },
  // Formatting writes the tree; `npm run lint` checks the same files with the same tool.
  format: { by: 'package.json', shows: 'prettier --check .' },
};

type ReadOnlyRun = { args: string[]; env?: Record<string, string>; code: number; output: RegExp };

/** Arguments that reach the script's own code and change nothing. */
const RUN_HERE: Record<string, ReadOnlyRun> = {
  dev: { args: [], env: { PORT: 'abc' }, code: 1, output: /^petstore: PORT must be a port number/m },
  keys: { args: ['--help'], code: 0, output: /^usage: npm run keys -- <create --name NAME/m },
  reset: { args: ['--help'], code: 0, output: /^usage: npm run reset -- \[DATA_DIR\]/m },
  restore: { args: ['--help'], code: 0, output: /^usage: npm run restore -- --from TABLE/m },
  'start:stage': {
    args: ['--help'],
    code: 0,
    output: /^usage: npm run start:stage -- <staging\|production>/m,
  },
  'test:e2e': {
    args: ['--help'],
    code: 0,
    output: /^usage: PETSTORE_API_KEY=<key> npm run test:e2e -- --base-url <url>/m,
  },
  probe: {
    args: ['--help'],
    code: 0,
    output: /^usage: PETSTORE_API_KEY=<key> npm run probe -- --base-url <url>/m,
  },
  openapi: { args: ['--check'], code: 0, output: /^$/ },
  // Every test file but the slow ones (jest.config.js).
  'test:fast': {
    args: ['--listTests'],
    code: 0,
    output: /^(?![\s\S]*\.slow\.test\.ts)[\s\S]*shared[/\\]json\.test\.ts/,
  },
  'stage-region': { args: ['staging'], code: 0, output: /^[a-z]{2}(-[a-z]+)+-\d\n$/ },
  'prune-versions': {
    args: [],
    code: 1,
    output: /^prune-versions: usage: npm run prune-versions -- --stage/m,
  },
};

/** What a deploy would change, against the stage's own synthesized template: no AWS call. */
const diffRun = (stage: 'staging' | 'production'): ReadOnlyRun => ({
  args: ['--app', 'cdk.out', '--template', projectAssembly(stage).templateFile, '--fail', '--no-notices'],
  code: 0,
  output: /Number of stacks with differences: 0/,
});

describe('every npm script', () => {
  it('is exercised by the loop, here or by a named test or CI step', () => {
    const deploys = ['deploy:staging', 'deploy:production'];
    const diffs = ['diff:staging', 'diff:production'];
    expect(Object.keys(SCRIPTS).toSorted()).toEqual(
      [...Object.keys(RUN_ELSEWHERE), ...Object.keys(RUN_HERE), ...diffs, ...deploys].toSorted(),
    );
    for (const [script, { by, shows }] of Object.entries(RUN_ELSEWHERE))
      expect({ script, by, shows: readRepoFile(by).includes(shows) }).toEqual({ script, by, shows: true });
  });

  it('deploys each stage with the selector its diff runs with here (a deploy needs AWS)', () => {
    for (const stage of ['staging', 'production'])
      expect(SCRIPTS[`deploy:${stage}`]).toContain(
        SCRIPTS[`diff:${stage}`]?.replace(/^cdk diff /, '') ?? '?',
      );
  });

  it.each([
    ...Object.entries(RUN_HERE),
    ['diff:staging', diffRun('staging')] as const,
    ['diff:production', diffRun('production')] as const,
  ])('npm run %s, with arguments that only read', async (script, { args, env, code, output }) => {
    const run = await runNpm(['run', '--silent', script, '--', ...args], { cwd: REPO_ROOT, env });
    expect({ code: run.code, output: `${run.stdout}${run.stderr}` }).toEqual({
      code,
      output: expect.stringMatching(output),
    });
  });
});
