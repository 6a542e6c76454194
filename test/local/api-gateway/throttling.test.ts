// API Gateway's request limits as the local gateway applies them, on a clock of the test's own: the
// stage's per-method throttle and the usage plan's per-key throttle are token buckets, and the
// quota counts per key and resets at the start of each UTC period.
import { describe, expect, it } from '@jest/globals';
import { createGatewayLimits } from '#local/api-gateway/throttling.ts';

describe('the limits', () => {
  it('throttle each method and each key as token buckets, and count a daily quota', () => {
    let now = Date.UTC(2026, 0, 1, 23, 59, 59);
    const limits = createGatewayLimits(
      {
        methodThrottle: { rateLimit: 2, burstLimit: 3 },
        usagePlan: { throttle: { rateLimit: 10, burstLimit: 10 }, quota: { limit: 5, period: 'DAY' } },
      },
      () => now,
    );
    const burst = Array.from({ length: 4 }, () => limits.admitMethod('GET /pets'));
    expect(burst).toEqual([undefined, undefined, undefined, 'THROTTLED']);
    expect(limits.admitMethod('POST /pets')).toBeUndefined();
    now += 500;
    expect(limits.admitMethod('GET /pets')).toBeUndefined();
    expect(limits.admitMethod('GET /pets')).toBe('THROTTLED');

    const perKey = Array.from({ length: 6 }, () => limits.admitKey('key-a'));
    expect(perKey).toEqual([undefined, undefined, undefined, undefined, undefined, 'QUOTA_EXCEEDED']);
    expect(limits.admitKey('key-b')).toBeUndefined();
    now += 1_000; // the next UTC day
    expect(limits.admitKey('key-a')).toBeUndefined();
  });
});
