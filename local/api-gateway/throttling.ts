// API Gateway's request limits, as it applies them: the stage's method throttling (one token
// bucket per method), then the usage plan's per-key throttle (a bucket per API key) and quota (a
// count per key and period, reset at the start of each UTC day, week or month). A request over
// any of them is a 429 through the THROTTLED or QUOTA_EXCEEDED gateway response.
import type { ApiDefinition, RateLimit, UsagePlanDefinition } from '#local/api-gateway/definition.ts';

export type LimitExceeded = 'THROTTLED' | 'QUOTA_EXCEEDED';

type Clock = () => number;

/** `rateLimit` tokens a second, up to `burstLimit`; a request takes one. Starts full, as in AWS. */
function createTokenBucket({ rateLimit, burstLimit }: RateLimit, now: Clock = Date.now) {
  let tokens = burstLimit;
  let filledAt = now();
  return function takeToken(): boolean {
    const at = now();
    tokens = Math.min(burstLimit, tokens + ((at - filledAt) / 1000) * rateLimit);
    filledAt = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

function periodStart(period: NonNullable<UsagePlanDefinition['quota']>['period'], at: number): number {
  const date = new Date(at);
  if (period === 'MONTH') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  // Usage plans' weeks start on Monday.
  return period === 'WEEK' ? day - ((date.getUTCDay() + 6) % 7) * 86_400_000 : day;
}

function createQuota({ limit, period }: NonNullable<UsagePlanDefinition['quota']>, now: Clock) {
  let used = 0;
  let counting = periodStart(period, now());
  return function countRequest(): boolean {
    const current = periodStart(period, now());
    if (current !== counting) [counting, used] = [current, 0];
    if (used >= limit) return false;
    used += 1;
    return true;
  };
}

/** One limiter per name, made on first use. */
function perName<T>(make: () => T) {
  const made = new Map<string, T>();
  return (name: string): T => {
    let existing = made.get(name);
    if (existing === undefined) made.set(name, (existing = make()));
    return existing;
  };
}

export function createGatewayLimits(
  { methodThrottle, usagePlan }: Pick<ApiDefinition, 'methodThrottle' | 'usagePlan'>,
  now: Clock = Date.now,
) {
  const { throttle, quota } = usagePlan ?? {};
  const methodBucket = methodThrottle && perName(() => createTokenBucket(methodThrottle, now));
  const keyBucket = throttle && perName(() => createTokenBucket(throttle, now));
  const keyQuota = quota && perName(() => createQuota(quota, now));
  return {
    /** The stage's limit on one method (`GET /pets`). */
    admitMethod: (method: string): LimitExceeded | undefined =>
      methodBucket && !methodBucket(method)() ? 'THROTTLED' : undefined,
    /** The usage plan's limits on one API key (the authorizer's usage identifier). */
    admitKey(usageIdentifierKey: string): LimitExceeded | undefined {
      if (keyBucket && !keyBucket(usageIdentifierKey)()) return 'THROTTLED';
      if (keyQuota && !keyQuota(usageIdentifierKey)()) return 'QUOTA_EXCEEDED';
      return undefined;
    },
  };
}
