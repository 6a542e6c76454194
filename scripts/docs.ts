// `npm run docs [-- --out <file>]`: the interactive API reference of `npm start`'s /docs as one
// static HTML file to publish (dist/api-reference.html by default), from the committed openapi.json
// with its own servers, the deployed stages, and no API key in it. It prints the file and its size.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseJson } from '#shared/json.ts';
import { renderApiReference } from '#local/server/api-reference-page.ts';
import type { OpenApiDocument } from '#local/server/api-reference-page.ts';

const USAGE = 'usage: npm run docs [-- --out <file>]  (default: dist/api-reference.html)';
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
// npm runs a script in the package folder; a relative --out is read from where npm was started.
const CALLER_DIR = process.env.INIT_CWD ?? process.cwd();

/** The output file; anything but --out <file> prints the usage line instead (exit 0 for --help). */
function outputFile(args: string[]): string {
  const parsed = (() => {
    try {
      return parseArgs({ args, options: { out: { type: 'string' }, help: { type: 'boolean' } } }).values;
    } catch {
      return undefined;
    }
  })();
  if (!parsed || parsed.help) {
    (parsed ? console.log : console.error)(USAGE);
    process.exit(parsed ? 0 : 2);
  }
  return parsed.out === undefined
    ? join(REPO_ROOT, 'dist/api-reference.html')
    : resolve(CALLER_DIR, parsed.out);
}

/** The file as the caller would type it: relative to where npm was started when it lies below. */
function shownPath(file: string) {
  const below = relative(CALLER_DIR, file);
  return below && !below.startsWith('..') && !isAbsolute(below) ? below : file;
}

const file = outputFile(process.argv.slice(2));
// parseJson: the int64 bounds of the document keep their digits on the page.
const document = parseJson(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8')) as OpenApiDocument;
const page = renderApiReference({ document });
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, page);
console.log(`Wrote ${shownPath(file)} (${(Buffer.byteLength(page) / 1024 / 1024).toFixed(1)} MB)`);
