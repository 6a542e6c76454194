// The shape a newcomer reads the project by: folders small enough to see at a glance, file names that
// do not repeat their folder's, and every code file opening with a short header that says what it
// is and why. Everything under the repository's root is checked but what installs and builds write.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { projectFiles, REPO_ROOT } from '#test/support/repository.ts';

const MAX_FILES_IN_A_FOLDER = 15;
const MAX_HEADER_LINES = 4;
const files = projectFiles(REPO_ROOT).map((path) => path.split('\\').join('/'));
const folders = Map.groupBy(
  files.filter((file) => file.includes('/')),
  (file) => dirname(file),
);
const codeFiles = files.filter((file) => /\.(ts|mjs|cjs|js)$/.test(file));

/** The lines of the comment a file opens with: `//` lines, or one `/** ... *\/` block. */
function headerLines(text: string): number {
  const lines = text.split('\n');
  if (lines[0]?.startsWith('/*')) return lines.findIndex((line) => line.includes('*/')) + 1;
  const code = lines.findIndex((line) => !line.startsWith('//'));
  return code === -1 ? lines.length : code;
}

describe('the source layout', () => {
  it('finds the folders and code files it checks', () => {
    expect([...folders.keys()]).toEqual(expect.arrayContaining(['local/api-gateway', 'lib', 'test/lib']));
    expect(codeFiles).toEqual(expect.arrayContaining(['local/start.ts', 'eslint.config.js']));
  });

  it(`has no folder with more than ${MAX_FILES_IN_A_FOLDER} files directly in it`, () => {
    const crowded = [...folders].filter(([, inside]) => inside.length > MAX_FILES_IN_A_FOLDER);
    expect(crowded.map(([folder, inside]) => `${folder}: ${inside.length} files`)).toEqual([]);
  });

  it("has no file name that starts with its folder's name", () => {
    const stutters = files.filter((file) => {
      const folder = basename(dirname(file)).replace(/s$/, '');
      const name = basename(file).replace(/\..*$/, '');
      return folder !== '.' && (name === folder || name.startsWith(`${folder}-`));
    });
    expect(stutters).toEqual([]);
  });

  it(`opens every code file with a header of 1 to ${MAX_HEADER_LINES} lines`, () => {
    const headers = codeFiles.map(
      (file) => [file, headerLines(readFileSync(join(REPO_ROOT, file), 'utf8'))] as const,
    );
    const outOfBounds = headers.filter(([, lines]) => lines < 1 || lines > MAX_HEADER_LINES);
    expect(outOfBounds.map(([file, lines]) => `${file}: ${lines} header lines`)).toEqual([]);
  });

  it('keeps the CDK app out of the code that runs in Lambda: nothing under functions/ or shared/ imports lib/', () => {
    const runtimeFiles = codeFiles.filter((file) => /^(functions|shared)\//.test(file));
    const importsOfLib = runtimeFiles.flatMap((file) => {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
        ([, from]) => from,
      );
      return specifiers
        .filter(
          (from = '') =>
            from.startsWith('#lib/') ||
            (/^\.\.?\//.test(from) && join(dirname(file), from).startsWith('lib/')),
        )
        .map((from) => `${file} imports ${from}`);
    });
    expect(runtimeFiles).toEqual(expect.arrayContaining(['functions/manifests.ts', 'shared/schemas.ts']));
    expect(importsOfLib).toEqual([]);
  });

  it('counts a header the way the check above does', () => {
    expect(headerLines('// what\n// why\nimport x;\n')).toBe(2);
    expect(headerLines('/** what and why */\nexport class X {}\n')).toBe(1);
    expect(headerLines('import x;\n')).toBe(0);
  });
});
