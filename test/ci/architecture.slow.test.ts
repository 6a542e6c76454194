// The architecture's rules (.dependency-cruiser.js, run by `npm run lint`) bite: on a scratch project
// that breaks each layer rule once and imports in a circle of types, dependency-cruiser reports each
// break under its rule, and nothing that keeps to the layers.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from '@jest/globals';
import { cruise } from 'dependency-cruiser';
import type { ICruiseResult, IConfiguration } from 'dependency-cruiser';
import { REPO_ROOT, readRepoJson, temporaryProject } from '#test/support/repository.ts';

const CONFIG_URL = pathToFileURL(join(REPO_ROOT, '.dependency-cruiser.js')).href;

/** A project with the repository's package imports and these files, each one line of imports. */
function scratchProject(files: Record<string, string>) {
  const { imports } = readRepoJson('package.json') as { imports: object };
  const modules = Object.entries(files).map(([file, text]) => [file, `${text}\nexport const value = 1;\n`]);
  return temporaryProject(
    { 'package.json': JSON.stringify({ type: 'module', imports }), ...Object.fromEntries(modules) },
    'architecture-',
  );
}

it('reports each import against the layers, and a circle of type-only imports', async () => {
  const { default: config } = (await import(CONFIG_URL)) as { default: IConfiguration };
  const root = scratchProject({
    'shared/json.ts': "import { value } from '#shared/schemas.ts';",
    'shared/schemas.ts': '',
    'shared/up.ts': "import { value } from '#functions/manifests.ts';",
    'functions/manifests.ts': "import { value } from '#shared/json.ts';",
    'functions/stack.ts': "import { value } from '#lib/petstore-stack.ts';",
    'lib/petstore-stack.ts': "import { value } from '#functions/manifests.ts';",
    'lib/server.ts': "import { value } from '#local/start.ts';",
    'local/start.ts': "import { value } from '#lib/petstore-stack.ts';",
    'shared/a.ts': "import type { B } from '#shared/b.ts';\nexport type A = B;",
    'shared/b.ts': "import type { A } from '#shared/a.ts';\nexport type B = A;",
    'test/shared/json.test.ts': "import { value } from '../../bench/cost.ts';",
    'bench/cost.ts': "import { value } from '../lib/petstore-stack.ts';",
  });
  const { output } = await cruise(['.'], {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    baseDir: root,
    tsConfig: undefined,
  });
  const violations = (output as ICruiseResult).summary.violations.map(
    ({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`,
  );
  expect(violations.toSorted()).toEqual(
    [
      'shared-imports-only-shared: shared/up.ts -> functions/manifests.ts',
      'functions-import-functions-and-shared: functions/stack.ts -> lib/petstore-stack.ts',
      'lib-imports-the-product: lib/server.ts -> local/start.ts',
      'tests-import-no-bench: test/shared/json.test.ts -> bench/cost.ts',
      'no-circular: shared/a.ts -> shared/b.ts',
    ].toSorted(),
  );
});
