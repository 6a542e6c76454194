// The repository's root folder, and its files as the tests read them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const readRepoFile = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

export const readRepoJson = (path: string): unknown => JSON.parse(readRepoFile(path));

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
