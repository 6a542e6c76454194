// JSON that keeps int64 values exact. JSON.parse alone rounds integers above 2^53; on Node 22+ its
// reviver sees each number's source text, and JSON.rawJSON writes a bigint's digits back verbatim.

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Beyond this many digits an integer is far outside int64; it stays a (rejected) number. */
const MAX_INTEGER_DIGITS = 40;

/** The number's exact value as a bigint when it is integral (JSON Schema: 1.0 is 1), else a number. */
export function exactNumber(source: string): bigint | number {
  const match = NUMBER.exec(source);
  if (!match) return Number(source);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  const scale = Number(exponent) - fraction.length;
  if (scale >= 0) {
    return digits.length + scale > MAX_INTEGER_DIGITS
      ? Number(source)
      : BigInt(sign + digits + '0'.repeat(scale));
  }
  const integral = digits.length > -scale && /^0+$/.test(digits.slice(scale));
  return integral ? BigInt(sign + digits.slice(0, scale)) : Number(source);
}

type ReviverContext = { source?: string };

export function parseJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: ReviverContext) =>
    typeof value === 'number' && context?.source !== undefined ? exactNumber(context.source) : value,
  );
}

export function stringifyJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, member: unknown) => (typeof member === 'bigint' ? JSON.rawJSON(member.toString()) : member),
    indent,
  );
}
