// Scales a recorded sample of API requests to a request rate: the units each partition key carries
// per second, as a share of DynamoDB's per-partition limits, and the rate at which the first key
// reaches its limit (the ceiling). A request a cache answers (API Gateway's stage or authorizer
// cache) reaches DynamoDB once per miss: a key asked r times a second misses r / (1 + r * ttl) times.
import { chargesOf } from '#bench/capacity/units.ts';
import type { TraceEntry } from '#bench/capacity/units.ts';

/** What one partition key serves per second: DynamoDB's documented per-partition maximum. */
export const PARTITION_LIMITS = { readUnits: 3_000, writeUnits: 1_000 } as const;

export type RecordedRequest = {
  operation: string;
  /** How many of the sample's requests it stands for: 1, or each request of a key for its authorizer call. */
  count: number;
  /** A cache in front of it: the same key within `ttlSeconds` of a miss never reaches the function. */
  cache?: { key: string; ttlSeconds: number };
  entries: TraceEntry[];
};

export type Sample = { requests: RecordedRequest[]; size: number };

export type KeyLoad = {
  index?: string;
  partition: string;
  readUnits: number;
  writeUnits: number;
  /** The larger of its read and write units' share of the per-partition limits (1: at the limit). */
  share: number;
};

export const keyName = (load: { index?: string; partition: string }) =>
  load.index ? `${load.index}: ${load.partition}` : load.partition;

/** The share of each request's kind that gets past its cache when the sample runs at `rate`. */
function missRatios({ requests, size }: Sample, rate: number) {
  const perRequest = rate / size;
  const cachedRates = new Map<string, number>();
  for (const { cache, count } of requests)
    if (cache) cachedRates.set(cache.key, (cachedRates.get(cache.key) ?? 0) + count * perRequest);
  return (cache: RecordedRequest['cache']) =>
    cache ? 1 / (1 + (cachedRates.get(cache.key) ?? 0) * cache.ttlSeconds) : 1;
}

/** Of one operation's requests at `rate`, the share its cache does not answer (1 without a cache). */
export function missShare(sample: Sample, rate: number, operation: string): number {
  const missRatio = missRatios(sample, rate);
  const own = sample.requests.filter((request) => request.operation === operation);
  const count = own.reduce((sum, request) => sum + request.count, 0);
  return own.reduce((sum, request) => sum + request.count * missRatio(request.cache), 0) / Math.max(1, count);
}

/** Each partition key's units per second when the sample's requests arrive at `rate` per second. */
export function loadAt(sample: Sample, rate: number): KeyLoad[] {
  const { requests, size } = sample;
  const perRequest = rate / size;
  const missRatio = missRatios(sample, rate);

  const loads = new Map<string, KeyLoad>();
  for (const request of requests) {
    const perSecond = request.count * perRequest * missRatio(request.cache);
    for (const charge of request.entries.flatMap(chargesOf)) {
      const load = loads.get(keyName(charge)) ?? {
        ...(charge.index && { index: charge.index }),
        partition: charge.partition,
        readUnits: 0,
        writeUnits: 0,
        share: 0,
      };
      load.readUnits += charge.readUnits * perSecond;
      load.writeUnits += charge.writeUnits * perSecond;
      load.share = Math.max(
        load.readUnits / PARTITION_LIMITS.readUnits,
        load.writeUnits / PARTITION_LIMITS.writeUnits,
      );
      loads.set(keyName(charge), load);
    }
  }
  return [...loads.values()].sort((a, b) => b.share - a.share || keyName(a).localeCompare(keyName(b)));
}

/** Past this many requests a second, a ceiling counts as none. */
const UNBOUNDED_RATE = 1e12;

export type Ceiling = { rate: number; key: KeyLoad | undefined };

/**
 * The request rate at which the hottest key reaches its limit (load grows with the rate, so a
 * bisection finds it), and that key; an infinite rate when no key ever reaches it.
 */
export function ceilingOf(sample: Sample): Ceiling {
  const hottest = (rate: number) => loadAt(sample, rate)[0];
  if (!hottest(1)) return { rate: Infinity, key: undefined };
  let [low, high] = [0, 1];
  while ((hottest(high)?.share ?? 0) < 1) {
    // A cached key's misses stop growing with the rate: its load may never reach the limit.
    if (high > UNBOUNDED_RATE) return { rate: Infinity, key: hottest(high) };
    [low, high] = [high, high * 2];
  }
  while (high - low > high * 1e-6) {
    const middle = (low + high) / 2;
    if ((hottest(middle)?.share ?? 0) < 1) low = middle;
    else high = middle;
  }
  return { rate: high, key: hottest(high) };
}

/** The sample restricted to one operation's requests, as if it were all the traffic. */
export function operationSample({ requests }: Sample, operation: string): Sample {
  const own = requests.filter((request) => request.operation === operation);
  return { requests: own, size: own.reduce((sum, request) => sum + request.count, 0) };
}
