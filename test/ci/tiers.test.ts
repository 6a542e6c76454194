// The two tiers of test/tiers.ts: every test file is in exactly one, a file is in the full tier when
// anything it imports, however far down, starts a process, drives a browser or synthesizes, and a new
// test lands in its tier by what it imports, with nobody to remember it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { testTiers } from '#test/tiers.ts';
import { REPO_ROOT, projectFiles } from '#test/support/repository.ts';

/** Spelled apart, so that this file itself shows tiers.ts no computed import of its own. */
const IMPORT = 'import';

/** A project of its own: package.json's imports and the given files. */
function projectWith(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'tiers-'));
  files['package.json'] = JSON.stringify({ imports: { '#test/*': './test/*', '#local/*': './local/*' } });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe('the test tiers', () => {
  it('hold every test file of the project once, in one tier or the other', () => {
    const { fast, full } = testTiers(REPO_ROOT);
    const tests = projectFiles(REPO_ROOT).filter((file) => /^(test|bench)\/.*\.test\.ts$/.test(file));
    expect([...fast, ...full.keys()].toSorted()).toEqual(tests.toSorted());
    expect(fast).toContain('test/shared/json.test.ts');
    expect(full.get('test/e2e/staging.test.ts')).toBe('starts a child process (test/support/process.ts)');
  });

  it('put a test in the full tier by what it reaches through its imports, type-only ones aside', () => {
    const root = projectWith({
      'local/runner.ts': "import { spawn } from 'child_process';\nexport const run = spawn;\n",
      'local/types.ts':
        "import type { ChildProcess } from 'node:child_process';\nexport type C = ChildProcess;\n",
      'test/support/page.ts': "export { launch } from 'puppeteer-core';\n",
      'test/a/pure.test.ts': "import type { C } from '#local/types.ts';\nimport { x } from './helper.ts';\n",
      'test/a/helper.ts': 'export const x = 1;\n',
      'test/a/server.test.ts': "import { y } from './far.ts';\n",
      'test/a/far.ts': "import { run } from '#local/runner.ts';\nexport const y = run;\n",
      'test/b/page.test.ts': `const page = await ${IMPORT}('#test/support/page.ts');\n`,
      'test/b/stack.test.ts': "import { Template } from 'aws-cdk-lib/assertions';\n",
      'test/b/computed.test.ts': `for (const name of names) await ${IMPORT}(\`./\${name}\`);\n`,
    });
    const { fast, full } = testTiers(root);
    expect(fast).toEqual(['test/a/pure.test.ts']);
    expect(Object.fromEntries(full)).toEqual({
      'test/a/server.test.ts': 'starts a child process (local/runner.ts)',
      'test/b/page.test.ts': 'drives a browser (test/support/page.ts)',
      'test/b/stack.test.ts': 'synthesizes a stack (test/b/stack.test.ts)',
      'test/b/computed.test.ts': 'imports a computed module name (test/b/computed.test.ts)',
    });
  });
});
