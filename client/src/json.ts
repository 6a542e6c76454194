// JSON that keeps the API's int64 fields exact. JSON.parse alone rounds integers above 2^53; its
// reviver's third argument carries each number's source text, and JSON.rawJSON writes a bigint's
// digits back verbatim. Both are ES2025 (Node.js 22+, current browsers) and not yet in
// TypeScript's standard library, hence the local types.

type ReviverContext = { source?: string };
type JsonWithRawJson = typeof JSON & { rawJSON?: (text: string) => unknown };

/** The response fields that are int64 and can exceed 2^53 (schema.ts types them as bigint). */
const INT64_FIELDS = new Set(['categoryId']);
const INTEGER_SOURCE = /^-?\d+$/;
const UNSUPPORTED_RUNTIME =
  'The Pet Store client needs JSON.rawJSON and JSON.parse source text access (Node.js 22 or later).';

const { rawJSON } = JSON as JsonWithRawJson;

/** Throws where the runtime would silently round big integers instead of keeping them exact. */
export function assertExactJsonSupport(): void {
  const sourceText = JSON.parse('1', (_key, _value, context?: ReviverContext) => context?.source);
  if (typeof rawJSON !== 'function' || sourceText !== '1') throw new Error(UNSUPPORTED_RUNTIME);
}

function exactInt64(key: string, value: unknown, context?: ReviverContext): unknown {
  const source = context?.source;
  const isInt64 = INT64_FIELDS.has(key) && typeof value === 'number';
  return isInt64 && source !== undefined && INTEGER_SOURCE.test(source) ? BigInt(source) : value;
}

function bigintAsDigits(_key: string, member: unknown): unknown {
  if (typeof member !== 'bigint') return member;
  if (!rawJSON) throw new Error(UNSUPPORTED_RUNTIME);
  return rawJSON(member.toString());
}

/** JSON.parse, but the int64 fields become bigints read from their source digits. */
export const parseApiJson = (text: string): unknown => JSON.parse(text, exactInt64);

/** JSON.stringify, but bigints go out as their exact digits. */
export const stringifyApiJson = (value: unknown): string => JSON.stringify(value, bigintAsDigits);
