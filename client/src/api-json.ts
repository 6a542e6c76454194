// The API's JSON as the client reads and writes it. The exact number handling is the server's own
// (exact-json.ts, generated from shared/json.ts); what is the client's alone is which fields become
// bigints (only the int64 ones, as schema.ts types them) and refusing runtimes that would round.
import { exactNumber, stringifyJson } from './exact-json.ts';

type ReviverContext = { source?: string };

/** The response fields that are int64 and can exceed 2^53; ids and every other integer stay numbers. */
const INT64_FIELDS = new Set(['categoryId']);
const UNSUPPORTED_RUNTIME =
  'The Pet Store client needs JSON.rawJSON and JSON.parse source text access (Node.js 22 or later).';

/** Throws where the runtime would silently round big integers instead of keeping them exact. */
export function assertExactJsonSupport(): void {
  const sourceText = JSON.parse('1', (_key, _value, context?: ReviverContext) => context?.source);
  if (typeof JSON.rawJSON !== 'function' || sourceText !== '1') throw new Error(UNSUPPORTED_RUNTIME);
}

function exactInt64(key: string, value: unknown, context?: ReviverContext): unknown {
  const source = context?.source;
  const isInt64 = INT64_FIELDS.has(key) && typeof value === 'number';
  return isInt64 && source !== undefined ? exactNumber(source) : value;
}

/** JSON.parse, but the int64 fields become bigints read from their source digits. */
export const parseApiJson = (text: string): unknown => JSON.parse(text, exactInt64);

/** JSON.stringify, but bigints go out as their exact digits. */
export const stringifyApiJson = (value: unknown): string => stringifyJson(value);
