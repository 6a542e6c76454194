// `npm run prune-versions`: which versions go, and the requests that delete them. Lambda cannot run
// here: a fake stands in for its client, paging as Lambda pages; the command line runs for real, up
// to the stage's outputs, which only a deployment makes (CloudFormation is a closed port: test-env.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ListAliasesCommand, ListVersionsByFunctionCommand } from '@aws-sdk/client-lambda';
import { pruneVersions, versionsToPrune } from '#scripts/prune-versions.ts';
import { stageRegions } from '#scripts/stage-region.ts';
import { runNode } from '#test/support/process.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

/** A function with versions 1 to `count`, listed two a page, and aliases pointing at some. */
function fakeLambda(count: number, aliases: { FunctionVersion: string; weighted?: string }[]) {
  const versions = ['$LATEST', ...Array.from({ length: count }, (_, index) => String(index + 1))];
  const deleted: string[] = [];
  const send = async (command: { input: { Marker?: string; Qualifier?: string } }) => {
    const start = Number(command.input.Marker ?? 0);
    if (command instanceof ListVersionsByFunctionCommand) {
      const page = versions.slice(start, start + 2).map((Version) => ({ Version }));
      return { Versions: page, NextMarker: start + 2 < versions.length ? String(start + 2) : undefined };
    }
    if (command instanceof ListAliasesCommand)
      return {
        Aliases: aliases.map(({ FunctionVersion, weighted }) => ({
          FunctionVersion,
          ...(weighted && { RoutingConfig: { AdditionalVersionWeights: { [weighted]: 0.1 } } }),
        })),
      };
    deleted.push(command.input.Qualifier ?? '');
    return {};
  };
  return { client: { send } as never, deleted };
}

describe('prune-versions', () => {
  it('keeps the newest N and every alias target, never $LATEST', () => {
    const versions = ['$LATEST', '1', '2', '3', '10', '11', '12'];
    expect(versionsToPrune(versions, new Set(['2']), 3)).toEqual(['3', '1']);
    expect(versionsToPrune(versions, new Set(), 10)).toEqual([]);
  });

  it('reads every page, and deletes by qualifier, sparing a canary and the version it replaces', async () => {
    const { client, deleted } = fakeLambda(7, [{ FunctionVersion: '3', weighted: '6' }]);
    expect(await pruneVersions(client, 'petstore-production-GetPetFunction', 2)).toEqual([
      '5',
      '4',
      '2',
      '1',
    ]);
    expect(deleted).toEqual(['5', '4', '2', '1']);
  });

  it('deletes nothing on a dry run', async () => {
    const { client, deleted } = fakeLambda(5, [{ FunctionVersion: '5' }]);
    expect(await pruneVersions(client, 'fn', 1, true)).toEqual(['4', '3', '2', '1']);
    expect(deleted).toEqual([]);
  });

  it.each([
    [
      ['--stage', 'staging', '--keep', '0'],
      'prune-versions: --keep must be a whole number of versions, at least 1, not "0".',
    ],
    [
      ['--keep', '3'],
      'prune-versions: usage: npm run prune-versions -- --stage staging|production [--keep N] [--dry-run]',
    ],
    [['--stage', 'qa'], 'prune-versions: --stage must be staging or production, not "qa".'],
    [
      ['--stage', 'staging'],
      'prune-versions: cdk-outputs.staging.json not found, and CloudFormation could not describe stack ' +
        `petstore-staging in ${stageRegions().staging} (connect ECONNREFUSED 127.0.0.1:9): ` +
        'deploy first (npm run deploy:staging), or export an AWS_PROFILE that can read the stack.',
    ],
  ])('refuses %j in one line', async (args, line) => {
    const cwd = mkdtempSync(join(tmpdir(), 'petstore-prune-'));
    const run = await runNode([join(REPO_ROOT, 'scripts/prune-versions.ts'), ...args], { cwd });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: `${line}\n` });
  });

  it('finds the functions in the outputs a deployment wrote', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'petstore-prune-'));
    writeFileSync(
      join(cwd, 'cdk-outputs.staging.json'),
      JSON.stringify({ 'petstore-staging': { Region: 'us-east-1' } }),
    );
    const run = await runNode([join(REPO_ROOT, 'scripts/prune-versions.ts'), '--stage', 'staging'], { cwd });
    expect(run.stderr).toBe(
      "prune-versions: No FunctionNames output in cdk-outputs.staging.json: deploy again (npm run deploy:staging) to write this version's outputs.\n",
    );
  });
});
