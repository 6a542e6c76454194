// The client's pace, so that a burst of calls waits its turn rather than earn 429s: each request takes
// a token of the bucket its key's RateLimit-Policy describes, none goes out before a 429's Retry-After
// has passed, and until its first answer says whether the key is limited, the client sends one at a time.
import { paceOf, parseRateLimitPolicy } from './rate-limit-policy.ts';
import type { Pace } from './rate-limit-policy.ts';
import { retryAfterMs } from './retry-policy.ts';
import type { Fetch } from './retrying-fetch.ts';

/** How long requests wait behind the client's first for its answer, should it be slow to come. */
const FIRST_ANSWER_WAIT_MS = 2_000;

/** The key's bucket as the client sees it: refilled at the pace's rate, up to its burst. */
class TokenBucket {
  readonly pace: Pace;
  #tokens: number;
  #at: number;

  constructor(pace: Pace, tokens: number, now: number) {
    this.pace = pace;
    this.#tokens = Math.max(0, Math.min(pace.burst, tokens));
    this.#at = now;
  }

  #refill(now: number) {
    const earned = (Math.max(0, now - this.#at) * this.pace.perSecond) / 1000;
    this.#tokens = Math.min(this.pace.burst, this.#tokens + earned);
    this.#at = now;
  }

  /** Milliseconds until a token is there, rounded up: the server's bucket has it by then too. */
  delay(now: number): number {
    this.#refill(now);
    return this.#tokens >= 1 ? 0 : Math.ceil(((1 - this.#tokens) * 1000) / this.pace.perSecond);
  }

  take(now: number) {
    this.#refill(now);
    this.#tokens -= 1;
  }

  /** A 429 says the server's bucket is empty, whatever this one counted. */
  empty(now: number) {
    this.#tokens = 0;
    this.#at = now;
  }

  /** This bucket at another pace, with the tokens it holds; itself when the pace is the same. */
  paced(pace: Pace, now: number): TokenBucket {
    if (pace.perSecond === this.pace.perSecond && pace.burst === this.pace.burst) return this;
    this.#refill(now);
    return new TokenBucket(pace, this.#tokens, now);
  }
}

type Waiter = { go: () => void };

/** performance.now(), not Date.now(): a clock set back must not hold requests for as long. */
const now = () => performance.now();

class Pacer {
  readonly #maxRetryAfterMs: number;
  #bucket: TokenBucket | undefined;
  /** No request goes out before this time: a 429's Retry-After. */
  #notBefore = 0;
  /** Until the first answer, requests wait behind the first one until this time; 0 once it came. */
  #firstAnswerDue: number | undefined;
  #inFlight = 0;
  readonly #queue: Waiter[] = [];
  #pumping = false;
  #wake: () => void = () => undefined;

  constructor(maxRetryAfterMs: number) {
    this.#maxRetryAfterMs = maxRetryAfterMs;
  }

  /** Resolves when the request may go out, in the order requests asked; rejects when `signal` aborts. */
  async turn(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#queue.length === 0 && this.#delay() === 0) return this.#send();
    await new Promise<void>((resolve, reject) => {
      const abort = () => {
        this.#queue.splice(this.#queue.indexOf(waiter), 1);
        reject(signal.reason);
      };
      const waiter = {
        go: () => {
          signal.removeEventListener('abort', abort);
          resolve();
        },
      };
      signal.addEventListener('abort', abort, { once: true });
      this.#queue.push(waiter);
      if (!this.#pumping) void this.#pump();
    });
  }

  /** What an attempt's answer (undefined: it failed) says of the key's limits. */
  settled(response: Response | undefined) {
    const at = now();
    this.#inFlight -= 1;
    this.#firstAnswerDue = 0;
    const pace = response && paceOf(parseRateLimitPolicy(response.headers.get('RateLimit-Policy')) ?? []);
    if (pace) {
      // A bucket new to the client: this answer's request took a token, and so will those in flight.
      this.#bucket =
        this.#bucket?.paced(pace, at) ?? new TokenBucket(pace, pace.burst - 1 - this.#inFlight, at);
    }
    if (response?.status === 429) {
      this.#bucket?.empty(at);
      const asked = retryAfterMs(response.headers.get('Retry-After'));
      // The retry policy's cap holds here too: no Retry-After holds every call for longer.
      if (asked !== undefined) {
        this.#notBefore = Math.max(this.#notBefore, at + Math.min(asked, this.#maxRetryAfterMs));
      }
    }
    this.#wake();
  }

  #delay(): number {
    const at = now();
    const first = this.#firstAnswerDue === undefined ? 0 : this.#firstAnswerDue - at;
    return Math.max(0, first, this.#notBefore - at, this.#bucket?.delay(at) ?? 0);
  }

  #send() {
    const at = now();
    this.#bucket?.take(at);
    this.#firstAnswerDue ??= at + FIRST_ANSWER_WAIT_MS;
    this.#inFlight += 1;
  }

  /** Lets the waiting requests go one by one, sleeping until the next may, or until an answer comes. */
  async #pump() {
    this.#pumping = true;
    for (let waiter = this.#queue[0]; waiter !== undefined; waiter = this.#queue[0]) {
      const delay = this.#delay();
      if (delay === 0) {
        this.#queue.shift();
        this.#send();
        waiter.go();
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#pumping = false;
  }
}

/** `send`, each request in its turn; `maxRetryAfterMs` caps how long a 429's Retry-After holds them. */
export function pacedFetch(send: Fetch, maxRetryAfterMs: number): Fetch {
  const pacer = new Pacer(maxRetryAfterMs);
  return async (request) => {
    await pacer.turn(request.signal);
    let response: Response | undefined;
    try {
      response = await send(request);
      return response;
    } finally {
      pacer.settled(response);
    }
  };
}
