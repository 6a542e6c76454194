// Every limit's arithmetic on hand-made samples and settings: what each one counts at a rate, its
// share and the rate at which it is reached, the quota plan's needs, a token bucket's demand, and the
// cache miss rule checked against a simulated TTL cache over a small catalogue.
import { describe, expect, test } from '@jest/globals';
import { STAGE_SETTINGS } from '../../lib/stage-settings.ts';
import type { StageSettings } from '../../lib/stage-settings.ts';
import { ID_BLOCK_SIZE, PET_ID_COUNTERS } from '../../shared/store/id-allocator.ts';
import { seededRandom } from '../../local/dynamodb/seed-pets.ts';
import { DEFAULT_MIX, POPULAR_PET_CACHE_KEY, busiestKeyShare } from '#bench/capacity/mix.ts';
import type { Mix } from '#bench/capacity/mix.ts';
import { missRatio } from '#bench/capacity/model.ts';
import type { Sample } from '#bench/capacity/model.ts';
import { functionLoads, pathLimits } from '#bench/capacity/limits.ts';
import { PLANNED_SHARE, QUOTA_PLAN, bucketDemand, checkLimits, quotaPlan } from '#bench/capacity/quotas.ts';
import type { PathInputs } from '#bench/capacity/limits.ts';
import { getItem, putPet, queryIndex, recorded as request } from '#bench/capacity/traces.ts';

/** Ten requests: 5 lists (one a cached page one), 3 gets (one of the popular pet), 2 creates. */
const sample: Sample = {
  size: 10,
  requests: [
    request('listPets', [getItem('PET#0')], {
      cache: { key: 'page one', ttlSeconds: 5 },
      responseBytes: 1000,
    }),
    ...Array.from({ length: 4 }, () => request('listPets', [queryIndex('STATUS#sold#1')])),
    request('getPet', [getItem('PET#1')], {
      cache: { key: POPULAR_PET_CACHE_KEY, ttlSeconds: 60, copies: 10 },
    }),
    request('getPet', [getItem('PET#1')]),
    request('getPet', [getItem('PET#2')]),
    request('createPet', [putPet('PET#3', 'STATUS#available#3')]),
    request('createPet', [putPet('PET#2', 'STATUS#available#2')]),
    request('authorizer', [getItem('APIKEY')], { count: 10, cache: { key: 'one key', ttlSeconds: 300 } }),
  ],
};
const mix: Mix = { ...DEFAULT_MIX, apiKeys: 4, addressesPerKey: 2, rampSeconds: 50 };
const settings: StageSettings = {
  ...STAGE_SETTINGS.production,
  throttling: { rateLimit: 1_000, burstLimit: 100 },
  perKeyLimits: { rateLimit: 500, burstLimit: 50, requestsPerDay: 10_000_000 },
  firewall: { requestsPerIpPer5Minutes: 60_000 },
  listCache: { ttlSeconds: 5, clusterSizeGb: '0.5' },
};
const inputs: PathInputs = {
  sample,
  mix: { ...mix, create: { ...mix.create, idempotencyKey: 0.5 } },
  settings,
  durationsMs: { listPets: 10, getPet: 5, createPet: 8, createPetIdempotent: 16, authorizer: 4 },
};
const RATE = 1_000;
const found = checkLimits(pathLimits(inputs), RATE);
const limit = (name: string) => {
  const match = found.find((candidate) => candidate.name.startsWith(name));
  if (!match) throw new Error(`No limit named ${name}`);
  return match;
};
const busiestKey = 1 / (1 + 1 / 2 + 1 / 3 + 1 / 4);

describe('API Gateway and the firewall', () => {
  test('the account rate counts every request, cached or not; its ceiling is what it allows', () => {
    expect(limit('account throttle rate').load).toBe(RATE);
    expect(limit('account throttle rate').ceiling).toBeCloseTo(QUOTA_PLAN.apiGatewayRate.planned, -1);
  });

  test('the stage throttle counts the busiest method: here GET /pets, half the requests', () => {
    expect(limit('stage throttle rate').load).toBeCloseTo(500, 6);
    expect(limit('stage throttle rate').share).toBeCloseTo(0.5, 6);
    expect(limit('stage throttle rate').ceiling).toBeCloseTo(2_000, -1);
  });

  test('per key: the busiest key of the Zipf law, its rate and its day', () => {
    expect(busiestKeyShare(mix)).toBeCloseTo(busiestKey, 9);
    expect(limit('usage plan rate').load).toBeCloseTo(RATE * busiestKey, 6);
    expect(limit('usage plan quota').load).toBeCloseTo(RATE * busiestKey * 86_400, 3);
  });

  test("the firewall counts one address's requests over its 5-minute window", () => {
    expect(limit('rate-based rule').load).toBeCloseTo(((RATE * busiestKey) / 2) * 300, 3);
  });

  test('a token bucket holds 2.25 r / (refill - r) for arrivals at r; nothing holds them at the refill', () => {
    expect(bucketDemand(900, 1_000)).toBeCloseTo(20.25, 9);
    expect(bucketDemand(1_000, 1_000)).toBe(Infinity);
    expect(limit('stage throttle burst').load).toBeCloseTo(bucketDemand(500, 1_000), 9);
    // A burst limit is reached with its rate: past the refill, no bucket is enough.
    expect(limit('stage throttle burst').ceiling).toBeLessThanOrEqual(2_000);
  });

  test('the stage cache holds one answer a cycle for its TTL: stored/s x TTL x response bytes', () => {
    // Page one: 100 requests/s on one entry store an answer 100 / (1 + 100 x 5) times a second.
    const stored = 100 / (1 + 100 * 5);
    expect(limit('stage cache size').load).toBeCloseTo(stored * 5 * 1000, 6);
    // With a fill time, the requests that miss while an answer is on its way store nothing more.
    const filling = {
      ...sample,
      requests: sample.requests.map((request) =>
        request.cache?.key === 'page one'
          ? { ...request, cache: { ...request.cache, fillSeconds: 0.1 } }
          : request,
      ),
    };
    const withFill = checkLimits(pathLimits({ ...inputs, sample: filling }), RATE);
    const storedWithFill = 100 / (1 + 100 * 5.1);
    expect(withFill.find((candidate) => candidate.name.startsWith('stage cache size'))?.load).toBeCloseTo(
      storedWithFill * 5 * 1000,
      6,
    );
    expect(limit('stage cache size').allows).toBe(0.5 * 2 ** 30);
  });
});

describe('Lambda', () => {
  const loads = functionLoads(inputs, RATE);

  test('what reaches each function: lists past the stage cache, keys past the authorizer cache', () => {
    expect(loads.invocations.listPets).toBeCloseTo(400 + 100 / 501, 6);
    expect(loads.invocations.getPet).toBe(300);
    expect(loads.invocations.createPet).toBe(200);
    expect(loads.invocations.authorizer).toBeCloseTo(RATE / (1 + RATE * 300), 6);
  });

  test('concurrency is invocations x duration, creates by their Idempotency-Key share', () => {
    expect(loads.concurrency.createPet).toBeCloseTo(200 * 0.012, 9);
    expect(limit('concurrent executions').load).toBeCloseTo(loads.totalConcurrency, 9);
    expect(limit('invocation rate').load).toBeCloseTo(loads.totalInvocations, 9);
    expect(limit('invocation rate').allows).toBe(10 * QUOTA_PLAN.lambdaConcurrency.planned);
  });

  test("scaling: the busiest function's instances and requests, added over the ramp, per 10 s", () => {
    expect(limit('scaling: new environments').load).toBeCloseTo(
      (Math.max(...Object.values(loads.concurrency)) / 50) * 10,
      9,
    );
    expect(limit('scaling: added requests').load).toBeCloseTo(((400 + 100 / 501) / 50) * 10, 6);
  });
});

describe('DynamoDB', () => {
  test('the hottest key under one budget: reads / 3,000 + writes / 1,000', () => {
    // PET#2: a strongly consistent get (1 unit) and a create (1 unit) at 100 each a second.
    expect(limit('per partition').load).toBeCloseTo(100 / 3000 + 100 / 1000, 9);
  });

  test("the id counters' worst second: Lambda's 1,000 new instances and the steady leases, spread", () => {
    // Each new instance reads the first counter (half a unit), then leases from a spread one.
    const leases = 1_000 + 200 / ID_BLOCK_SIZE;
    const firstCounter = (1_000 * 0.5) / 3000;
    expect(limit('id counters').load).toBeCloseTo(Math.max(firstCounter, leases / PET_ID_COUNTERS / 1000), 9);
  });

  test("the popular pet's item: its reads past getPet's cache, one unit each", () => {
    expect(limit('one item').load).toBeCloseTo(
      100 * missRatio(100, { key: '', ttlSeconds: 60, copies: 10 }),
      9,
    );
  });

  test('the table and its index apart, against the table-level quota and the warm throughput', () => {
    // Page one's misses, the gets (the popular pet's past its cache), the authorizer's misses.
    const popular = 100 * missRatio(100, { key: '', ttlSeconds: 60, copies: 10 });
    const tableReads = 100 / 501 + popular + 200 + 1000 / (1 + 1000 * 300);
    expect(limit('table: table-level read quota').load).toBeCloseTo(tableReads, 6);
    expect(limit('table: table-level write quota').load).toBe(200);
    expect(limit('status index: table-level read quota').load).toBeCloseTo(400 * 0.5, 9);
    expect(limit('status index: table-level write quota').load).toBe(200);
    expect(limit('table: warm throughput, reads').allows).toBe(
      settings.warmThroughput?.table.readUnitsPerSecond ?? 12_000,
    );
    const cold = checkLimits(
      pathLimits({ ...inputs, settings: { ...settings, warmThroughput: undefined } }),
      RATE,
    );
    expect(
      cold.find((candidate) => candidate.name.startsWith('table: warm throughput, writes'))?.allows,
    ).toBe(4_000);
  });
});

describe('the plan', () => {
  test('each quota needs its load over the planned share, the largest of the limits it sets', () => {
    const plan = quotaPlan(found);
    const lambda = plan.find(({ quota }) => quota === QUOTA_PLAN.lambdaConcurrency);
    const needed = Math.max(
      limit('concurrent executions').load / PLANNED_SHARE,
      limit('invocation rate').load / 10 / PLANNED_SHARE,
    );
    expect(lambda?.needed).toBeCloseTo(needed, 9);
  });
});

describe('the cache miss rule against a simulated cache', () => {
  /** Requests arriving independently at `rate` over `keys` entries, each cached `ttl` s once filled. */
  function simulate(rate: number, keys: number, ttl: number, fill: number, seconds: number) {
    const random = seededRandom(7);
    const filledAt = new Map<number, number>();
    const expiresAt = new Map<number, number>();
    let [time, requests, misses] = [0, 0, 0];
    while ((time += -Math.log(1 - random()) / rate) < seconds) {
      const key = Math.floor(random() * keys);
      requests++;
      const cached = (filledAt.get(key) ?? Infinity) <= time && time < (expiresAt.get(key) ?? 0);
      const filling = (filledAt.get(key) ?? -Infinity) > time;
      if (cached) continue;
      misses++;
      if (!filling) {
        filledAt.set(key, time + fill);
        expiresAt.set(key, time + fill + ttl);
      }
    }
    return misses / requests;
  }

  test.each([
    { rate: 2_000, keys: 50, ttl: 5, fill: 0 },
    { rate: 2_000, keys: 50, ttl: 5, fill: 0.05 },
    { rate: 500, keys: 20_000, ttl: 5, fill: 0.05 },
  ])('$rate requests/s over $keys entries, TTL $ttl s, fill $fill s', ({ rate, keys, ttl, fill }) => {
    const simulated = simulate(rate, keys, ttl, fill, 600);
    expect(simulated).toBeCloseTo(missRatio(rate, { key: '', ttlSeconds: ttl, keys, fillSeconds: fill }), 2);
  });
});
