// Tables stay readable, in the source and on a narrow screen: no cell of any Markdown file of the
// repository is longer than MAX_TABLE_CELL characters; what needs more goes under the table.
import { describe, expect, it } from '@jest/globals';
import { longTableCells, markdownFiles, MAX_TABLE_CELL } from '#test/support/markdown-links.ts';
import { readRepoFile, REPO_ROOT } from '#test/support/repository.ts';

const files = markdownFiles(REPO_ROOT);

describe('Markdown tables', () => {
  it.each(files)(`%s: no table cell is over ${MAX_TABLE_CELL} characters`, (file) => {
    expect(longTableCells(readRepoFile(file))).toEqual([]);
  });
});

describe('the table check itself', () => {
  const long = 'x'.repeat(MAX_TABLE_CELL + 1);
  const fits = 'y'.repeat(MAX_TABLE_CELL);

  it('finds a cell over the limit, in any column, with its line', () => {
    const markdown = [
      '# Title',
      '',
      '| name | what |',
      '| ---- | ---- |',
      `| ok   | ${fits} |`,
      `| bad  | ${long} |`,
      `${long} | no outer pipes`,
    ].join('\n');
    expect(longTableCells(markdown)).toEqual([
      `line 6: ${MAX_TABLE_CELL + 1} characters: ${'x'.repeat(40)}...`,
      `line 7: ${MAX_TABLE_CELL + 1} characters: ${'x'.repeat(40)}...`,
    ]);
  });

  it('reads cells as GitHub does: an escaped pipe stays in its cell; delimiter rows, code blocks and other text are no cells', () => {
    const halves = `${'z'.repeat(70)} \\| ${'z'.repeat(70)}`;
    const markdown = [
      '| head |',
      `| ${'-'.repeat(MAX_TABLE_CELL + 1)} |`,
      `| ${halves} |`,
      '',
      `a paragraph with a | pipe, ${long}`,
      '',
      '```md',
      '| in | a block |',
      '| -- | ------- |',
      `| no | ${long} |`,
      '```',
    ].join('\n');
    expect(longTableCells(markdown)).toEqual([`line 3: ${halves.length} characters: ${'z'.repeat(40)}...`]);
  });
});
