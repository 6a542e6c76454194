// The dependency updates (.github/dependabot.yml): npm and the workflows' actions, monthly, with the
// npm packages grouped as they are released together. Matched here the way Dependabot matches:
// a dependency goes to the first group whose patterns (and dependency type) it fits.
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { readRepoFile, readRepoJson } from '#test/support/repository.ts';

type Group = { patterns?: string[]; 'dependency-type'?: 'development' | 'production' };
type Update = {
  'package-ecosystem': string;
  directory: string;
  schedule: { interval: string };
  groups?: Record<string, Group>;
  ignore?: { 'dependency-name': string; 'update-types'?: string[] }[];
};

const config = parse(readRepoFile('.github/dependabot.yml')) as { version: number; updates: Update[] };
const manifest = readRepoJson('package.json') as Record<string, Record<string, string> | undefined>;
const development = Object.keys(manifest.devDependencies ?? {});
const production = [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
];

const matches = (pattern: string, name: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*')}$`,
  ).test(name);
const npm = config.updates.find((update) => update['package-ecosystem'] === 'npm');

/** The group Dependabot puts a dependency in, or undefined for a pull request of its own. */
function groupOf(name: string, type: 'development' | 'production') {
  const groups = Object.entries(npm?.groups ?? {});
  return groups.find(
    ([, group]) =>
      (group['dependency-type'] ?? type) === type &&
      (group.patterns ?? ['*']).some((pattern) => matches(pattern, name)),
  )?.[0];
}

describe('.github/dependabot.yml', () => {
  it('updates npm packages and GitHub Actions monthly, from the repository root', () => {
    expect(config.version).toBe(2);
    expect(
      config.updates.map((update) => [
        update['package-ecosystem'],
        update.directory,
        update.schedule.interval,
      ]),
    ).toEqual([
      ['npm', '/', 'monthly'],
      ['github-actions', '/', 'monthly'],
    ]);
  });

  it('groups the AWS SDK, the CDK and the development tooling', () => {
    const all = [
      ...production.map((name) => [name, 'production'] as const),
      ...development.map((name) => [name, 'development'] as const),
    ];
    const grouped = Object.fromEntries(all.map(([name, type]) => [name, groupOf(name, type)]));
    for (const name of all.map(([name]) => name).filter((name) => name.startsWith('@aws-sdk/')))
      expect([name, grouped[name]]).toEqual([name, 'aws-sdk']);
    for (const name of ['aws-cdk', 'aws-cdk-lib', 'constructs', 'cdk-nag'])
      expect([name, grouped[name]]).toEqual([name, 'cdk']);
    for (const name of ['jest', 'typescript', 'eslint', 'prettier', 'esbuild'])
      expect([name, grouped[name]]).toEqual([name, 'dev-tooling']);
    // Every development dependency is in a group: none waits alone for its own pull request.
    expect(development.filter((name) => grouped[name] === undefined)).toEqual([]);
  });

  it('names only packages the project has, in its groups and in what it ignores', () => {
    const names = [...production, ...development];
    const patterns = [
      ...Object.values(npm?.groups ?? {}).flatMap((group) => group.patterns ?? []),
      ...(npm?.ignore ?? []).map((rule) => rule['dependency-name']),
    ];
    expect(patterns.filter((pattern) => !names.some((name) => matches(pattern, name)))).toEqual([]);
  });

  it('keeps Node.js 24 and the aws-cdk CLI 2.x line: their majors are decisions, not updates', () => {
    const majorsIgnored = (npm?.ignore ?? [])
      .filter((rule) => rule['update-types']?.includes('version-update:semver-major'))
      .map((rule) => rule['dependency-name']);
    expect(majorsIgnored).toEqual(expect.arrayContaining(['node-*', '@types/node', 'aws-cdk']));
  });
});
