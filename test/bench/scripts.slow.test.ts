// The bench, the soak and the capacity model, each run as a user runs it (npm run <script>), in its
// quick mode and side by side: they finish, print their tables and leave the tracked tree as it was.
// Nothing about speed is checked: figures stay in the benchmark, never in a test.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { runNpm } from '#test/support/npm.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

const SCRIPT_TIMEOUT_MS = 180_000;

/** What Git sees changed under bench/, where the results files are. */
const benchChanges = () =>
  execFileSync('git', ['status', '--porcelain', '--', 'bench'], { cwd: REPO_ROOT, encoding: 'utf8' });

async function runQuick(script: string) {
  const before = benchChanges();
  const run = await runNpm(['run', script, '--', '--quick'], { cwd: REPO_ROOT });
  // On a failure, what the script said last is in the diff.
  const said = run.code === 0 ? '' : run.stderr.slice(-2000);
  expect({ script, code: run.code, said }).toEqual({ script, code: 0, said: '' });
  expect(benchChanges()).toBe(before);
  return run.stdout;
}

describe('the scripts only a person runs, in their quick modes', () => {
  it.concurrent(
    'npm run bench -- --quick measures every subject and prints every table and target',
    async () => {
      const stdout = await runQuick('bench');
      for (const heading of [
        '## Functions next to their baselines',
        '## DynamoDB per call',
        '## Bytes on the wire',
        "## A burst through the client, on a key of staging's limits",
        '## Local server under load',
        '## Cost per million calls',
        '## By memory size',
        '## Targets',
      ])
        expect(stdout).toContain(heading);
      for (const subject of ['listPets', 'getPet', 'createPet', 'authorizer'])
        expect(stdout).toMatch(new RegExp(`^\\| ${subject} +\\| cold start, median`, 'm'));
      // The client paces a burst past the key's limit: every read succeeds.
      expect(stdout).toMatch(
        /^40 of 40 reads succeeded in [\d,]+ ms, with \d+ answers of 429 on the wire\.$/m,
      );
      expect(stdout).toMatch(/^\| listPets, a page of 100 +\| [\d,]+ +\| [\d,]+ +\| \d+ % +\|$/m);
      expect(stdout).toMatch(/bench\/\.out\/results\.json written/);
    },
    SCRIPT_TIMEOUT_MS,
  );

  it.concurrent(
    'npm run soak -- --quick loads the local server and reads its memory',
    async () => {
      const stdout = await runQuick('soak');
      expect(stdout).toMatch(/^ {2}0:00 {2}\d+ MB {2}\(seeded, before the load\)$/m);
      expect(stdout).toMatch(/^requests: [1-9]\d* \(\d+\/s\), failures: 0$/m);
      expect(stdout).toContain('soak ran (--quick');
    },
    SCRIPT_TIMEOUT_MS,
  );

  it.concurrent(
    'npm run capacity -- --quick runs the mix and prints the keys and the ceilings',
    async () => {
      const stdout = await runQuick('capacity');
      expect(stdout).toContain('# Capacity model: 300 requests');
      expect(stdout).toMatch(/^\| Partition key +\| Read units\/s/m);
      expect(stdout).toMatch(/^\| Operation alone +\| Ceiling/m);
      expect(stdout).toMatch(/written to bench[/\\]\.out[/\\]capacity-results\.json\.$/m);
    },
    SCRIPT_TIMEOUT_MS,
  );
});
