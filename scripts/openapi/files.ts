// Where the generated files live and which of them differ from what would be generated: the
// staleness test and `--check` share this comparison.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const GENERATED_FILES = {
  document: fileURLToPath(new URL('../../openapi.json', import.meta.url)),
  clientTypes: fileURLToPath(new URL('../../client/src/schema.ts', import.meta.url)),
} as const;

export type GeneratedFile = { path: string; text: string };

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

export const staleFiles = (files: GeneratedFile[]) =>
  files.filter((file) => readOrEmpty(file.path) !== file.text);
