// The local gateway compresses as API Gateway documents it: at or past the minimum size, in a coding the
// client's Accept-Encoding names, never an answer that has a Content-Encoding of its own.
import { gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { compressedAnswer } from '#local/api-gateway/compression.ts';

const MINIMUM = 100;
const answer = (bytes: number, headers: Record<string, string> = {}) => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json', ETag: 'W/"x"', ...headers },
  body: `"${'a'.repeat(bytes - 2)}"`,
});

describe('compressedAnswer', () => {
  it.each([
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate, gzip;q=0.1', 'gzip'],
    ['br, deflate', 'deflate'],
    ['identity;q=1, gzip;q=0.001', 'gzip'],
  ])('answers Accept-Encoding %j in %s, keeping every header', (accept, coding) => {
    const plain = answer(MINIMUM);
    const compressed = compressedAnswer(plain, accept, MINIMUM);
    expect(compressed.headers).toEqual({ ...plain.headers, 'Content-Encoding': coding });
    expect(compressed.isBase64Encoded).toBe(true);
    const decode = coding === 'gzip' ? gunzipSync : inflateSync;
    expect(decode(Buffer.from(compressed.body, 'base64')).toString()).toBe(plain.body);
  });

  it.each([
    ['no Accept-Encoding', undefined, MINIMUM],
    ['only *', '*', MINIMUM],
    ['gzip refused', 'gzip;q=0, deflate;q=0.000', MINIMUM],
    ['a coding API Gateway lacks', 'br, zstd', MINIMUM],
    ['a body one byte short', 'gzip', MINIMUM - 1],
  ])('sends the answer as it is for %s', (_case, accept, bytes) => {
    const plain = answer(bytes);
    expect(compressedAnswer(plain, accept, MINIMUM)).toBe(plain);
  });

  it('leaves an answer with its own Content-Encoding, and compresses nothing without a minimum', () => {
    const own = answer(MINIMUM, { 'content-encoding': 'identity' });
    expect(compressedAnswer(own, 'gzip', MINIMUM)).toBe(own);
    const plain = answer(MINIMUM * 10);
    expect(compressedAnswer(plain, 'gzip', undefined)).toBe(plain);
  });
});
