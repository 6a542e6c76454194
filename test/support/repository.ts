// The repository's root folder, and its files as the tests read them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const readRepoFile = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

export const readRepoJson = (path: string): unknown => JSON.parse(readRepoFile(path));
