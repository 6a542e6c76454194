// The client's ETag cache: the last 200 of each GET URL that came with an ETag, kept so that a 304 to
// its If-None-Match can stand for it. Bounded by entries, least recently used first out, and private to
// one client, as the API's `Cache-Control: private` asks: it holds what one API key may read.
import { shown } from './retry-policy.ts';

export type CacheOptions = {
  /** The most answers kept (default 500), one a URL, query included. */
  maxEntries: number;
};

/** An answer kept: always a 200, its body as fetch decoded it. */
export type CachedAnswer = { etag: string; headers: Headers; body: ArrayBuffer };

/** A sensible bound: 500 pages of up to 100 animals each are a few megabytes. */
const DEFAULT_MAX_ENTRIES = 500;

export class EtagCache {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(url: string): CachedAnswer | undefined {
    return this.#entries.get(url);
  }

  /** Keeps `answer` as the most recently used, the least recently used out when there are too many. */
  set(url: string, answer: CachedAnswer) {
    this.#entries.delete(url);
    this.#entries.set(url, answer);
    const [oldest] = this.#entries.keys();
    if (this.#entries.size > this.#maxEntries && oldest !== undefined) this.#entries.delete(oldest);
  }

  delete(url: string) {
    this.#entries.delete(url);
  }
}

/** The cache the `cache` option asks for, checked at creation; undefined for `false`. */
export function etagCache(cache: unknown = { maxEntries: DEFAULT_MAX_ENTRIES }): EtagCache | undefined {
  if (cache === false) return undefined;
  if (typeof cache !== 'object' || cache === null || Array.isArray(cache)) {
    throw new TypeError(`cache must be false or { maxEntries }; got ${shown(cache)}`);
  }
  const { maxEntries, ...others } = cache as Partial<CacheOptions>;
  const unknown = Object.keys(others);
  if (unknown.length > 0) {
    throw new TypeError(`cache has no option ${unknown.join(', ')}: the option is maxEntries`);
  }
  if (typeof maxEntries !== 'number' || !Number.isInteger(maxEntries) || maxEntries < 1) {
    const none = 'cache: false keeps none';
    throw new TypeError(
      `cache.maxEntries must be a whole number, 1 or more (${none}); got ${shown(maxEntries)}`,
    );
  }
  return new EtagCache(maxEntries);
}
