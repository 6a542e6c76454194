// The repository's root folder, its files as the tests read them, and projects of a test's own.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const readRepoFile = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

export const readRepoJson = (path: string): unknown => JSON.parse(readRepoFile(path));

/** A project of a test's own in the run's temporary directory, holding these files (path to text). */
export function temporaryProject(files: Record<string, string>, prefix = 'petstore-project-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

/** What npm, the builds and the local servers write, and git's own folder: nothing of the project's. */
const NOT_PROJECT_FOLDERS = new Set([
  '.git',
  'node_modules',
  'cdk.out',
  'coverage',
  'dist',
  '.out',
  '.petstore',
  '.petstore-data',
]);

/** Every file of the project under `folder`, relative to `root`, with the platform's separator. */
export function projectFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (!entry.isDirectory()) return [relative(root, path)];
    return NOT_PROJECT_FOLDERS.has(entry.name) ? [] : projectFiles(root, path);
  });
}
