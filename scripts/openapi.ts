// `npm run openapi`: writes openapi.json (OpenAPI 3.1) and the client package's types
// (client/src/schema.ts) from the zod schemas the handlers validate with, the error catalogue and
// the route table, so the document cannot drift from the code; and the client's int64-exact JSON
// (client/src/exact-json.ts) from the server's shared/json.ts. `npm run openapi -- --check` writes
// nothing and exits 1 when a committed file differs from what would be generated (the tests do the
// same). The parts of the document are built in scripts/openapi/.
import { writeFileSync } from 'node:fs';
import { renderClientJson } from './openapi/client-json.ts';
import { renderClientTypes } from './openapi/client-types.ts';
import { buildOpenApiDocument, renderOpenApiJson } from './openapi/document.ts';
import { GENERATED_FILES, staleFiles } from './openapi/files.ts';
import type { GeneratedFile } from './openapi/files.ts';

export { staleFiles };

export async function generateFiles(): Promise<GeneratedFile[]> {
  const document = renderOpenApiJson(buildOpenApiDocument());
  return [
    { path: GENERATED_FILES.document, text: document },
    { path: GENERATED_FILES.clientTypes, text: await renderClientTypes(document) },
    { path: GENERATED_FILES.clientJson, text: await renderClientJson() },
  ];
}

async function main(args: string[]) {
  const check = args.includes('--check');
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) throw new Error(`Unknown arguments: ${unknown.join(' ')} (only --check)`);
  const files = await generateFiles();
  if (!check) {
    for (const file of files) writeFileSync(file.path, file.text);
    return;
  }
  const stale = staleFiles(files);
  for (const file of stale) console.error(`${file.path} is stale: run npm run openapi`);
  process.exitCode = stale.length > 0 ? 1 : 0;
}

if (import.meta.main) await main(process.argv.slice(2));
