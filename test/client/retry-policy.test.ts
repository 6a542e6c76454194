// The waits of the client's retries, which its HTTP tests cannot see without timing them: the
// exponential ceiling of the backoff and its full jitter, and how a Retry-After header is read.
import { describe, expect, it } from '@jest/globals';
import { backoffDelay, DEFAULT_RETRY_POLICY, retryAfterMs } from '#client/src/retry-policy.ts';

describe('the backoff', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
  const retries = [1, 2, 3, 4, 5, 6];

  it('doubles its ceiling each retry, up to maxDelayMs', () => {
    expect(retries.map((retry) => backoffDelay(policy, retry, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('waits a random time between 0 and the ceiling (full jitter)', () => {
    expect(retries.map((retry) => backoffDelay(policy, retry, () => 0))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(backoffDelay(policy, 3, () => 0.25)).toBe(100);
    const waits = Array.from({ length: 200 }, () => backoffDelay(policy, 4));
    expect(waits.every((wait) => wait >= 0 && wait < 800)).toBe(true);
    expect(new Set(waits).size).toBeGreaterThan(1);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    ['0', 0],
    ['1', 1000],
    [' 120 ', 120_000],
    ['Thu, 01 Jan 2026 00:00:02 GMT', 2000],
    ['Thursday, 01-Jan-26 00:00:03 GMT', 3000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
  ])('reads %p as %i ms', (value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each([null, '', '-1', '1.5', 'soon', '2026-01-01T00:00:02Z', 'Thu Jan  1 00:00:02 2026'])(
    'cannot read %p: the backoff applies',
    (value) => {
      expect(retryAfterMs(value, now)).toBeUndefined();
    },
  );
});
