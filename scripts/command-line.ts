// What the tools that call an API (`npm run probe`, `npm run test:e2e`) read from their command line:
// options, each mistake in one line; and a base URL: http(s), ending in /v1, with nothing a request
// could not carry (no query, fragment or credentials: fetch refuses the last, the key goes in a header).
import { parseArgs } from 'node:util';
import type { ParseArgsOptionsConfig } from 'node:util';

/** The options' values; a mistake goes to `fail` as parseArgs's first line, which explains it. */
export function readOptions<Options extends ParseArgsOptionsConfig>(
  args: string[],
  options: Options,
  fail: (message: string) => never,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return fail((error as Error).message.split('\n')[0] ?? '');
  }
}

/** The URL without its trailing slash, or undefined when it is not such a base URL. */
export function apiBaseUrl(value: string): string | undefined {
  const url = URL.parse(value.replace(/\/$/, ''));
  const fine =
    url !== null &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname.endsWith('/v1') &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '';
  return fine ? url.href : undefined;
}
