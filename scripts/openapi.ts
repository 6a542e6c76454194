// `npm run openapi`: writes openapi.json (OpenAPI 3.1) and the client package's types from the zod
// schemas the handlers validate with, the error catalogue and the route table, so the document cannot
// drift from the code; and the client's int64-exact JSON from the server's shared/json.ts. The parts of
// the document are built in scripts/openapi/.
import { writeFileSync } from 'node:fs';
import { parseJson } from '#shared/json.ts';
import { BASELINE_PATH, v1BreakingChanges } from '#scripts/openapi/breaking-changes.ts';
import { renderClientJson } from '#scripts/openapi/client-json.ts';
import { renderClientTypes } from '#scripts/openapi/client-types.ts';
import { buildOpenApiDocument, renderOpenApiJson } from '#scripts/openapi/document.ts';
import { GENERATED_FILES, staleFiles } from '#scripts/openapi/files.ts';
import type { GeneratedFile } from '#scripts/openapi/files.ts';

export { staleFiles };

export async function generateFiles(): Promise<GeneratedFile[]> {
  const document = renderOpenApiJson(buildOpenApiDocument());
  return [
    { path: GENERATED_FILES.document, text: document },
    { path: GENERATED_FILES.clientTypes, text: await renderClientTypes(document) },
    { path: GENERATED_FILES.clientJson, text: await renderClientJson() },
  ];
}

/**
 * --check writes nothing and exits 1 when a committed file differs from what would be generated, or when
 * openapi.json breaks the released v1 (openapi.v1-baseline.json); --release-baseline writes the files and
 * makes this document the baseline, on purpose (docs/openapi.md).
 */
const FLAGS = ['--check', '--release-baseline'];

async function main(args: string[]) {
  const [flag, ...others] = args;
  if (others.length > 0 || (flag !== undefined && !FLAGS.includes(flag))) {
    throw new Error(`Unknown arguments: ${args.join(' ')} (give at most one of ${FLAGS.join(', ')})`);
  }
  const files = await generateFiles();
  const document = files.find((file) => file.path === GENERATED_FILES.document)?.text ?? '';
  const breaking = v1BreakingChanges(parseJson(document));
  if (flag === '--check') {
    const stale = staleFiles(files);
    for (const file of stale) console.error(`${file.path} is stale: run npm run openapi`);
    for (const change of breaking) console.error(change);
    process.exitCode = stale.length > 0 || breaking.length > 0 ? 1 : 0;
    return;
  }
  for (const file of files) writeFileSync(file.path, file.text);
  if (flag === '--release-baseline') writeFileSync(BASELINE_PATH, document);
  if (breaking.length === 0) return;
  console.error(
    flag === '--release-baseline'
      ? 'openapi.v1-baseline.json now releases these breaking changes, on purpose:'
      : 'npm test fails until these are undone or released on purpose (docs/openapi.md):',
  );
  for (const change of breaking) console.error(change);
}

if (import.meta.main) await main(process.argv.slice(2));
