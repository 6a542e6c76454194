// What the tools that call an API (`npm run probe`, `npm run test:e2e`) read from their command line:
// options, each mistake in one line; a base URL ending in /v1, https or plain http to this machine
// only, with nothing a request could not carry; and the API key, never from an argument that `ps`
// and npm's log show, but from PETSTORE_API_KEY or stdin.
import { text } from 'node:stream/consumers';
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

/** Plain http only to this machine: a key sent in the clear goes no further. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** What a base URL must be, for the tools' one-line mistakes. */
const BASE_URL_RULE = 'an https URL ending in /v1 (plain http only to localhost, 127.0.0.1 or [::1])';

/** The URL without its trailing slash, or undefined when it is not such a base URL. */
function apiBaseUrl(value: string): string | undefined {
  const url = URL.parse(value.replace(/\/$/, ''));
  const fine =
    url !== null &&
    (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname))) &&
    url.pathname.endsWith('/v1') &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '';
  return fine ? url.href : undefined;
}

/** The base URL without its trailing slash; a mistake goes to `fail`, saying `what` gave it. */
export const requireBaseUrl = (value: string, what: string, fail: (message: string) => never): string =>
  apiBaseUrl(value) ?? fail(`${what} must be ${BASE_URL_RULE}, not "${value}"`);

/** The options readApiKey reads: `--api-key-stdin`, and `--api-key` for scripts that still pass it. */
export const API_KEY_OPTIONS = {
  'api-key': { type: 'string' },
  'api-key-stdin': { type: 'boolean', default: false },
} as const;

/** The variable the API key is read from, unless `--api-key-stdin` says stdin. */
const API_KEY_VARIABLE = 'PETSTORE_API_KEY';

/**
 * The API key: `--api-key`'s value if given (kept for scripts that pass it), else stdin's first line
 * with `--api-key-stdin`, else PETSTORE_API_KEY. No message repeats it.
 */
export async function readApiKey(
  fromStdin: boolean,
  fail: (message: string) => never,
  argument?: string,
): Promise<string> {
  const key =
    argument ?? (fromStdin ? (await text(process.stdin)).split(/\r?\n/)[0] : process.env[API_KEY_VARIABLE]);
  if (key === undefined || key === '')
    return fail(`the API key is missing: set ${API_KEY_VARIABLE}, or pipe it in with --api-key-stdin`);
  return /^\S+$/.test(key) ? key : fail('the API key must be one word: no spaces');
}
