// openapi.json, the client's types and the client's copy of shared/json.ts are committed: they must
// be exactly what `npm run openapi` generates from their sources now.
import { relative } from 'node:path';
import { expect, it } from '@jest/globals';
import { generateFiles, staleFiles } from '#scripts/openapi.ts';
import { wrapDocComments } from '#scripts/openapi/client-types.ts';

it('every file npm run openapi generates is up to date (else run npm run openapi)', async () => {
  const stale = staleFiles(await generateFiles()).map((file) => relative(process.cwd(), file.path));
  expect(stale).toEqual([]);
});

it("wraps the client types' doc comments at the code width, a word too long for it on its own line", () => {
  const long = `  /** ${'word '.repeat(30)}${'x'.repeat(120)} */`;
  const wrapped = wrapDocComments(`${long}\n   * ${'more '.repeat(30)}\n  short();`, 40).split('\n');
  expect(wrapped.filter((line) => line.length > 40)).toEqual([`   * ${'x'.repeat(120)}`]);
  expect(wrapped[0]).toBe('  /**');
  expect(wrapped.at(-1)).toBe('  short();');
  expect(wrapped.join(' ').replace(/\s+\*?\s*/g, ' ')).toContain(`${'word '.repeat(30)}${'x'.repeat(120)}`);
});
