// The end-to-end suite's HTTP client: real requests with fetch to any base URL, with the bearer key,
// every response checked against openapi.json (test/support/http.ts does both). A throttled API (a
// deployed stage, or its local emulation) answers a burst with 429: it is retried after its
// Retry-After plus a random jitter that spreads parallel retries, and returned after MAX_ATTEMPTS.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyLimits } from '#shared/http/rate-limit-policy.ts';
import { sendRequest } from '#test/support/http.ts';
import type { HttpResponse, RequestOptions } from '#test/support/http.ts';

const MAX_ATTEMPTS = 40;
const DEFAULT_RETRY_AFTER_MS = 1_000;
const MAX_JITTER_MS = 500;

export type E2eTarget = {
  /**
   * The API's base URL, ending in /v1 without a trailing slash:
   * `https://<id>.execute-api.<region>.amazonaws.com/v1`.
   */
  baseUrl: string;
  /** An active API key of that API. */
  apiKey: string;
  /** True: send only requests that change nothing. */
  readOnly: boolean;
  /** The usage plan's limits on a key; null where keys are not limited (`npm start`); undefined: unknown. */
  keyLimits: KeyLimits | null | undefined;
};

/**
 * Sends a request; `path` is the path from /v1 on with any query (`/v1/pets?limit=5`), as the
 * API's own Link and Location headers are, so that they can be followed as they are.
 */
export type E2eRequest = (path: string, options?: RequestOptions) => Promise<HttpResponse>;

/** How long to wait before retrying a 429: its Retry-After (seconds or an HTTP date) plus jitter. */
function retryDelayMs(retryAfter: string | null, now = Date.now()): number {
  const jitter = Math.random() * MAX_JITTER_MS;
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1_000 + jitter;
  const date = retryAfter === null ? NaN : Date.parse(retryAfter);
  return (Number.isNaN(date) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, date - now)) + jitter;
}

export function e2eClient({ baseUrl, apiKey }: Pick<E2eTarget, 'baseUrl' | 'apiKey'>): E2eRequest {
  // Paths start with /v1, so they are sent to what comes before the base URL's /v1.
  const server = { url: baseUrl.replace(/\/v1$/, ''), apiKey };
  return async function request(path, options) {
    for (let attempt = 1; ; attempt++) {
      const response = await sendRequest(server, path, options);
      if (response.status !== 429 || attempt >= MAX_ATTEMPTS) return response;
      await sleep(retryDelayMs(response.headers.get('retry-after')));
    }
  };
}

/**
 * Follows `Link: <...>; rel="next"` from `first`, page by page, for at most `maxPages` pages.
 * Each page must be a 200 (else this throws, naming it); `complete` says whether the last page
 * had no next link.
 */
export async function followLinks(
  request: E2eRequest,
  first: string,
  maxPages: number,
): Promise<{ pages: HttpResponse[]; links: string[]; complete: boolean }> {
  const pages: HttpResponse[] = [];
  const links: string[] = [];
  let next: string | undefined = first;
  while (next !== undefined && pages.length < maxPages) {
    const page = await request(next);
    if (page.status !== 200) throw new Error(`GET ${next} answered ${page.status}: ${page.text}`);
    pages.push(page);
    next = nextLink(page);
    if (next !== undefined) links.push(next);
  }
  return { pages, links, complete: next === undefined };
}

/** The target of a response's `Link: <target>; rel="next"`, if it has one. */
export const nextLink = (response: HttpResponse): string | undefined =>
  /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
