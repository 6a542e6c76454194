// The documentation stands alone: in every Markdown file of the repository, each link resolves to
// a file (and heading) of the repository itself, so a clone is all a reader needs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { brokenLinks, headingAnchors, markdownFiles } from '#test/support/markdown-links.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

const files = markdownFiles(REPO_ROOT);

describe('Markdown links', () => {
  it('are checked in the README, docs/, local/ and the client package', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        join('docs', 'api.md'),
        join('docs', 'deployment.md'),
        join('docs', 'local.md'),
        join('docs', 'openapi.md'),
        join('docs', 'performance.md'),
        join('local', 'README.md'),
        join('client', 'README.md'),
      ]),
    );
  });

  it.each(files)('%s: every link resolves inside the repository', (file) => {
    expect(brokenLinks(REPO_ROOT, file)).toEqual([]);
  });
});

describe('the link check itself', () => {
  it('finds links that leave the repository, missing files and missing headings, and skips code', () => {
    const root = mkdtempSync(join(tmpdir(), 'petstore-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'docs/guide.md'), '# Guide\n\n## Per-key limits (v1)\n');
      const readme = [
        '# Title',
        '[ok](docs/guide.md) [ok anchor](docs/guide.md#per-key-limits-v1) [self](#title)',
        '[outside](../shared/spec.md) [web](https://example.com) [gone](docs/missing.md)',
        '[bad anchor](docs/guide.md#nowhere)',
        '`[in code](nowhere.md)`',
        '```md\n[in a block](nowhere.md)\n```',
      ].join('\n');
      writeFileSync(join(root, 'README.md'), readme);
      expect(brokenLinks(root, 'README.md')).toEqual([
        '../shared/spec.md: leaves the repository',
        'https://example.com: leaves the repository',
        'docs/missing.md: no such file',
        'docs/guide.md#nowhere: no such heading',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('makes anchors the way GitHub does', () => {
    expect([...headingAnchors('## `npm start`: the API\n## Errors\n## Errors\n### 1.0 & more')]).toEqual([
      'npm-start-the-api',
      'errors',
      'errors-1',
      '10--more',
    ]);
  });
});
