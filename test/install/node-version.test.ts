// Which Node.js runs the project's scripts, and how they are written: an older Node.js stops with
// one line, the version file agrees with engines, and nothing needs a POSIX shell (npm runs scripts
// with cmd.exe on Windows, and so does the CDK CLI with cdk.json's app).
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
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

/** Runs node as the npm scripts do, with the version check first, on a Node.js that says it is `version`. */
function runOnNode(version: string, ...args: string[]) {
  const preloads = [
    '--require',
    join(REPO_ROOT, 'test/install/fake-runtime.cjs'),
    '--require',
    `./${VERSION_CHECK}`,
  ];
  return runNode([...preloads, ...args], { cwd: REPO_ROOT, env: { FAKE_NODE_VERSION: version } });
}

describe('the Node.js version', () => {
  it('is at least 24 (the Lambda runtime), in engines and in .nvmrc', () => {
    expect(engines.node).toBe('>=24');
    expect(readRepoFile('.nvmrc').trim()).toBe('24');
  });

  it.each(['22.11.0', '23.9.0', '18.20.4'])(
    'stops Node.js %s with one line that names the version needed',
    async (version) => {
      const run = await runOnNode(version, 'local/start.ts');
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `This project needs Node.js 24.0.0 or later, and this is Node.js ${version}: ` +
          'install it (`nvm install` reads .nvmrc) and run the command again.\n',
      );
    },
  );

  it.each(['24.0.0', '24.21.0', '25.1.0'])('lets Node.js %s through', async (version) => {
    const run = await runOnNode(version, '--eval', 'process.stdout.write(process.versions.node)');
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
