// The RateLimit-Policy field of draft-ietf-httpapi-ratelimit-headers-11: an API key's limits in the
// stage's usage plan, so that a client paces itself instead of meeting a 429. Every key shares the plan,
// so the field is the same for every caller and safe in the stage cache. No `RateLimit` field: API
// Gateway does not tell the function how much of a key's bucket or quota is left.

/** A usage plan's limits on a key: a token bucket (`rateLimit` a second into `burstLimit`), a day's quota. */
export type KeyLimits = { rateLimit: number; burstLimit: number; requestsPerDay: number };

/**
 * The limits in `text`, JSON of whole numbers above 0; undefined for anything else. Read without zod,
 * which every function's bundle would then carry, the authorizer's included.
 */
export function parseKeyLimits(text: string): KeyLimits | undefined {
  let limits: unknown;
  try {
    limits = JSON.parse(text);
  } catch {
    return undefined;
  }
  const names = ['rateLimit', 'burstLimit', 'requestsPerDay'];
  const valid =
    typeof limits === 'object' &&
    limits !== null &&
    Object.keys(limits).length === names.length &&
    names.every((name) => {
      const value = (limits as Record<string, unknown>)[name];
      return Number.isSafeInteger(value) && (value as number) > 0;
    });
  return valid ? (limits as KeyLimits) : undefined;
}

/**
 * The header of every answer of a stage with these limits. Two quota policies: `rate`, the bucket's
 * refill per second with its size as `petstore-burst` (the draft has no burst parameter, and asks for a
 * prefix on one of a service's own), and `daily`.
 */
export const rateLimitHeaders = ({ rateLimit, burstLimit, requestsPerDay }: KeyLimits) => ({
  'RateLimit-Policy': `"rate";q=${rateLimit};w=1;petstore-burst=${burstLimit}, "daily";q=${requestsPerDay};w=86400`,
});
