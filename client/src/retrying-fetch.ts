// The client's fetch: the caller's own, sending a request again after a throttle (429), a gateway
// or service failure (502, 503, 504) or a network error, but only when a repeat cannot do harm: a GET,
// or a create carrying an Idempotency-Key (generated when the caller gave none), which the API replays.
import { backoffDelay, delayBefore } from './retry-policy.ts';
import type { RetryPolicy } from './retry-policy.ts';

export type Fetch = (request: Request) => Promise<Response>;

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENCY_KEY = 'Idempotency-Key';

const isCreate = (request: Request) =>
  request.method === 'POST' && new URL(request.url).pathname.endsWith('/pets');

/** A create without the caller's key gets one, the same for every attempt of the call. */
function withIdempotencyKey(request: Request): Request {
  if (!isCreate(request) || request.headers.has(IDEMPOTENCY_KEY)) return request;
  const headers = new Headers(request.headers);
  headers.set(IDEMPOTENCY_KEY, crypto.randomUUID());
  return new Request(request, { headers });
}

const isReplayable = (request: Request) =>
  request.method === 'GET' || (isCreate(request) && request.headers.has(IDEMPOTENCY_KEY));

const isAbort = (error: unknown) => (error as { name?: unknown } | null)?.name === 'AbortError';

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** `send` with retries as `policy` says; every create keyed, even with one attempt. */
export function retryingFetch(send: Fetch, policy: RetryPolicy): Fetch {
  if (policy.maxAttempts <= 1) return (input) => send(withIdempotencyKey(input));
  return async (input) => {
    const request = withIdempotencyKey(input);
    if (!isReplayable(request)) return send(request);
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= policy.maxAttempts;
      // Each attempt but the last sends a copy, so that the body is still there to send again.
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await send(sent);
      } catch (error) {
        if (last || request.signal.aborted || isAbort(error)) throw error;
        await sleep(backoffDelay(policy, attempt), request.signal);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(delayBefore(policy, attempt, response), request.signal);
    }
  };
}
