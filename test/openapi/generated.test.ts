// openapi.json and the client's types are committed: they must be exactly what `npm run openapi`
// generates from the zod schemas now.
import { relative } from 'node:path';
import { expect, it } from '@jest/globals';
import { generateFiles, staleFiles } from '../../scripts/openapi.ts';

it('openapi.json and client/src/schema.ts are up to date (else run npm run openapi)', async () => {
  const stale = staleFiles(await generateFiles()).map((file) => relative(process.cwd(), file.path));
  expect(stale).toEqual([]);
});
