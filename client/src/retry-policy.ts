// When and how long the client waits before sending a request again: the `retries` option read and
// checked once, at creation, so that a typo or a nonsense value fails there and not mid-request, and
// the wait before each retry (the server's Retry-After, else exponential backoff with full jitter).

export type RetryOptions = {
  /** Attempts in all, the first included (default 3); 0 or 1 sends each request once. */
  maxAttempts?: number;
  /** Backoff: the n-th retry waits a random time up to min(maxDelayMs, baseDelayMs * 2^(n-1)). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The longest the client waits for a Retry-After: a longer one is waited this long, then retried. */
  maxRetryAfterMs?: number;
};

/** `retries`: options, or 0 (or false) for no retry at all. */
export type Retries = RetryOptions | 0 | false;

export type RetryPolicy = Required<RetryOptions>;

/**
 * The API's own Retry-After is short and a network error is worth a quick second try; a wait the
 * server asks to be long (over a quota, say) is cut short, so that no call hangs for minutes.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 10_000,
};

const OPTION_NAMES = new Set(Object.keys(DEFAULT_RETRY_POLICY));

/** A setting's value as an error message quotes it. */
export const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));

function checked(name: string, value: unknown, integer: boolean): number {
  const valid = typeof value === 'number' && (integer ? Number.isInteger(value) : Number.isFinite(value));
  if (!valid || value < 0) {
    const kind = integer ? 'a whole number' : 'a finite number of milliseconds';
    throw new TypeError(`retries.${name} must be ${kind}, 0 or more; got ${shown(value)}`);
  }
  return value;
}

/** The policy that `retries` asks for; a TypeError names the first option that makes no sense. */
export function retryPolicy(retries: unknown = {}): RetryPolicy {
  if (retries === 0 || retries === false) return { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 };
  if (typeof retries !== 'object' || retries === null || Array.isArray(retries)) {
    throw new TypeError(`retries must be 0, false or { maxAttempts, ... }; got ${shown(retries)}`);
  }
  const given = Object.entries(retries).filter(([, value]) => value !== undefined);
  const unknown = given.map(([name]) => name).filter((name) => !OPTION_NAMES.has(name));
  if (unknown.length > 0) {
    const known = [...OPTION_NAMES].join(', ');
    throw new TypeError(`retries has no option ${unknown.join(', ')}: the options are ${known}`);
  }
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...Object.fromEntries(given) };
  return {
    maxAttempts: checked('maxAttempts', policy.maxAttempts, true),
    baseDelayMs: checked('baseDelayMs', policy.baseDelayMs, false),
    maxDelayMs: checked('maxDelayMs', policy.maxDelayMs, false),
    maxRetryAfterMs: checked('maxRetryAfterMs', policy.maxRetryAfterMs, false),
  };
}

/** Full jitter: a random wait between 0 and the retry's exponential ceiling (`retry` counts from 1). */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
}

/** IMF-fixdate and the obsolete RFC 850 form; asctime's, without a zone, falls back to the backoff. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*, .+ GMT$/;

/** Retry-After (RFC 9110, delta-seconds or an HTTP-date) in milliseconds; undefined when unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` after `response`: its Retry-After when it has one
 * the client can read, at most maxRetryAfterMs; else the backoff.
 */
export function delayBefore(policy: RetryPolicy, retry: number, response: Response): number {
  const asked = retryAfterMs(response.headers.get('Retry-After'));
  return asked === undefined ? backoffDelay(policy, retry) : Math.min(asked, policy.maxRetryAfterMs);
}
