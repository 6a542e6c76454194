// openapi.json, the client's types and the client's copy of shared/json.ts are committed: they must
// be exactly what `npm run openapi` generates from their sources now.
import { relative } from 'node:path';
import { expect, it } from '@jest/globals';
import { generateFiles, staleFiles } from '#scripts/openapi.ts';

it('every file npm run openapi generates is up to date (else run npm run openapi)', async () => {
  const stale = staleFiles(await generateFiles()).map((file) => relative(process.cwd(), file.path));
  expect(stale).toEqual([]);
});
