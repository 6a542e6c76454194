// Where the generated files live, how they are formatted, and which of them differ from what would be
// generated: one comparison for every staleness check.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

export const GENERATED_FILES = {
  document: fileURLToPath(new URL('../../openapi.json', import.meta.url)),
  clientTypes: fileURLToPath(new URL('../../client/src/schema.ts', import.meta.url)),
  clientJson: fileURLToPath(new URL('../../client/src/exact-json.ts', import.meta.url)),
} as const;

export type GeneratedFile = { path: string; text: string };

/** Formatted as `prettier --write` would leave the file at `path`, so `prettier --check` passes. */
export async function formatGenerated(path: string, source: string): Promise<string> {
  const config = await prettier.resolveConfig(path);
  return prettier.format(source, { ...config, filepath: path });
}

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

export const staleFiles = (files: GeneratedFile[]) =>
  files.filter((file) => readOrEmpty(file.path) !== file.text);
