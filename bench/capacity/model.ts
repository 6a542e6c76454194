// Scales a recorded sample of API requests to a request rate: the units each partition key carries
// per second, as a share of one per-partition budget (reads and writes together, the conservative
// reading), and the rate at which the first key reaches it. A cached request reaches DynamoDB once
// per miss: r / (1 + r * ttl) times a second, exact for requests that arrive independently.
import { chargesOf } from '#bench/dynamodb/capacity-units.ts';
import type { TraceEntry } from '#bench/dynamodb/capacity-units.ts';

/**
 * What one partition serves per second: DynamoDB's documented per-partition maximum. AWS's knowledge
 * center reads the two as one budget (reads / 3,000 + writes / 1,000 <= 1), and so does the model.
 */
export const PARTITION_LIMITS = { readUnits: 3_000, writeUnits: 1_000 } as const;
/** The conservative reading of the per-partition limit: the share of one budget reads and writes use. */
export const partitionShare = ({ readUnits, writeUnits }: { readUnits: number; writeUnits: number }) =>
  readUnits / PARTITION_LIMITS.readUnits + writeUnits / PARTITION_LIMITS.writeUnits;

export type RecordedRequest = {
  operation: string;
  /** How many of the sample's requests it stands for: 1, or each request of a key for its authorizer call. */
  count: number;
  /** A cache in front of it: the same key within `ttlSeconds` of a miss is answered without a read. */
  cache?: CacheSpec;
  /** The bytes of its response: what a cache entry of it holds. */
  responseBytes?: number;
  entries: TraceEntry[];
};

/**
 * `key` names the requests that share a cache entry. Where they stand for `keys` entries asked
 * equally (later pages of a catalogue larger than the sample's), each entry gets its share of their
 * rate. A cache held by each of `copies` function instances sees its share of the rate in each. For
 * `fillSeconds` after a miss, until its answer is cached, requests for the entry miss too.
 */
export type CacheSpec = {
  key: string;
  ttlSeconds: number;
  keys?: number;
  copies?: number;
  fillSeconds?: number;
};

export type Sample = { requests: RecordedRequest[]; size: number };

export type KeyLoad = {
  index?: string;
  partition: string;
  readUnits: number;
  writeUnits: number;
  /** Its share of the per-partition budget (partitionShare; 1: at the limit). */
  share: number;
};

export const keyName = (load: { index?: string; partition: string }) =>
  load.index ? `${load.index}: ${load.partition}` : load.partition;

/**
 * Of requests asked `rate` times a second on one cache entry: the share that misses, and the share
 * that stores an answer. A cycle starts with a miss; the requests of the next `fill` seconds miss
 * too; then the entry answers for `ttl` seconds, and the first request after that starts the next
 * cycle: (1 + r*fill) misses and one answer stored, of 1 + r*(fill + ttl) requests.
 */
function cacheCycle(rate: number, { ttlSeconds, keys = 1, copies = 1, fillSeconds = 0 }: CacheSpec) {
  const each = rate / keys / copies;
  const requestsPerCycle = 1 + each * (fillSeconds + ttlSeconds);
  return { missRatio: (1 + each * fillSeconds) / requestsPerCycle, storeRatio: 1 / requestsPerCycle };
}

export const missRatio = (rate: number, cache: CacheSpec) => cacheCycle(rate, cache).missRatio;

/** Each cache key's requests a second when the sample runs at `rate`. */
function cachedRates({ requests, size }: Sample, rate: number) {
  const perRequest = rate / size;
  const rates = new Map<string, number>();
  for (const { cache, count } of requests)
    if (cache) rates.set(cache.key, (rates.get(cache.key) ?? 0) + count * perRequest);
  return rates;
}

/** Each request's cache cycle when the sample runs at `rate`; no cache: every request misses. */
function cacheCycles(sample: Sample, rate: number) {
  const rates = cachedRates(sample, rate);
  return (cache: CacheSpec | undefined) =>
    cache ? cacheCycle(rates.get(cache.key) ?? 0, cache) : { missRatio: 1, storeRatio: 0 };
}

/** The share of each request's kind that gets past its cache when the sample runs at `rate`. */
function missRatios(sample: Sample, rate: number) {
  const cycles = cacheCycles(sample, rate);
  return (cache: CacheSpec | undefined) => cycles(cache).missRatio;
}

/**
 * The bytes a cache holds at `rate`: an entry stores one answer a cycle and keeps it for its TTL, so
 * an entry kind holds answers stored a second x TTL x its response's bytes.
 */
export function cachedBytes(sample: Sample, rate: number, operation: string): number {
  const cycles = cacheCycles(sample, rate);
  const perRequest = rate / sample.size;
  return sample.requests
    .filter((request) => request.operation === operation && request.cache)
    .reduce((sum, { cache, count, responseBytes = 0 }) => {
      if (!cache) return sum;
      return sum + count * perRequest * cycles(cache).storeRatio * cache.ttlSeconds * responseBytes;
    }, 0);
}

/** Of one operation's requests at `rate`, the share its cache does not answer (1 without a cache). */
export function missShare(sample: Sample, rate: number, operation: string): number {
  const missRatioOf = missRatios(sample, rate);
  const own = sample.requests.filter((request) => request.operation === operation);
  const count = own.reduce((sum, request) => sum + request.count, 0);
  return (
    own.reduce((sum, request) => sum + request.count * missRatioOf(request.cache), 0) / Math.max(1, count)
  );
}

/** Each partition key's units per second when the sample's requests arrive at `rate` per second. */
export function loadAt(sample: Sample, rate: number): KeyLoad[] {
  const { requests, size } = sample;
  const perRequest = rate / size;
  const missRatioOf = missRatios(sample, rate);

  const loads = new Map<string, KeyLoad>();
  for (const request of requests) {
    const perSecond = request.count * perRequest * missRatioOf(request.cache);
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
      load.share = partitionShare(load);
      loads.set(keyName(charge), load);
    }
  }
  return [...loads.values()].sort((a, b) => b.share - a.share || keyName(a).localeCompare(keyName(b)));
}

/** Past this many requests a second, a ceiling counts as none. */
const UNBOUNDED_RATE = 1e12;

/**
 * The rate at which a share that grows with the rate reaches `limit` (a bisection); Infinity when it
 * never does, as a cached load whose misses stop growing with the rate.
 */
export function rateAtShare(shareAt: (rate: number) => number, limit = 1): number {
  let [low, high] = [0, 1];
  while (shareAt(high) < limit) {
    if (high > UNBOUNDED_RATE) return Infinity;
    [low, high] = [high, high * 2];
  }
  while (high - low > high * 1e-6) {
    const middle = (low + high) / 2;
    if (shareAt(middle) < limit) low = middle;
    else high = middle;
  }
  return high;
}

export type Ceiling = { rate: number; key: KeyLoad | undefined };

/** The request rate at which the hottest key reaches `limit` of its budget, and that key. */
export function ceilingOf(sample: Sample, limit = 1): Ceiling {
  const hottest = (rate: number) => loadAt(sample, rate)[0];
  if (!hottest(1)) return { rate: Infinity, key: undefined };
  const rate = rateAtShare((at) => hottest(at)?.share ?? 0, limit);
  return { rate, key: hottest(Number.isFinite(rate) ? rate : UNBOUNDED_RATE) };
}

/** The sample restricted to one operation's requests, as if it were all the traffic. */
export function operationSample({ requests }: Sample, operation: string): Sample {
  const own = requests.filter((request) => request.operation === operation);
  return { requests: own, size: own.reduce((sum, request) => sum + request.count, 0) };
}
