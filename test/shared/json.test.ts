// shared/json.ts: int64 values stay exact through parse and stringify; an integral number in any
// notation reads as a bigint, any other as a number.
import { describe, expect, it } from '@jest/globals';
import { exactNumber, parseJson, stringifyJson } from '#shared/json.ts';

describe('exact JSON numbers', () => {
  it.each([
    ['1', 1n],
    ['1.0', 1n],
    ['1e2', 100n],
    ['1.5e1', 15n],
    ['100e-2', 1n],
    ['-0', 0n],
    ['0.000', 0n],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775807.000', 9223372036854775807n],
    ['123456789012345678901234567890', 123456789012345678901234567890n],
  ])('reads the integral %s as the bigint %s', (source, expected) => {
    expect(exactNumber(source)).toBe(expected);
  });

  it.each([
    ['1.5', 1.5],
    ['1.25e1', 12.5],
    ['12e-1', 1.2],
    ['1e-999', 0],
    ['1e999', Infinity],
  ])('keeps the non-integral or unbounded %s a number', (source, expected) => {
    expect(exactNumber(source)).toBe(expected);
  });

  it('round-trips int64 values through parse and stringify', () => {
    const text = '{"a":9223372036854775807,"b":[1.5,"x",-9223372036854775808]}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });
});
