// The mix's cost at a rate, service by service, on hand-made volumes: API Gateway's monthly tiers,
// the cache cluster by the hour, WAF and X-Ray per request, Lambda by requests and GB-seconds,
// DynamoDB by units, logs by bytes ingested, and data transfer by its tiers.
import { describe, expect, test } from '@jest/globals';
import { COST_ASSUMPTIONS, benchDurations, costAtRate } from '#bench/capacity/cost.ts';
import type { PathVolumes } from '#bench/capacity/cost.ts';

const durationsMs = { listPets: 10, getPet: 8, createPet: 8, createPetIdempotent: 16, authorizer: 8 };
const none = { listPets: 0, getPet: 0, createPet: 0, createPetIdempotent: 0, authorizer: 0 };
const quiet: PathVolumes = { requests: 0, invocations: none, readUnits: 0, writeUnits: 0, responseBytes: 0 };
const item = (volumes: PathVolumes, service: string, cacheClusterSize?: '1.6') =>
  costAtRate(volumes, { memoryMb: 1024, durationsMs, cacheClusterSize }).items.find((line) =>
    line.service.startsWith(service),
  )?.perHour ?? NaN;
const hoursPerMonth = 730;
const monthly = (perSecond: number) => perSecond * 3600 * hoursPerMonth;

describe('cost at a rate', () => {
  test('API Gateway: each monthly tier at its own price', () => {
    // 1,000 requests/s is 2.628 billion a month: all of the first two tiers, the rest in the third.
    const requests = monthly(1000);
    const expected = (333e6 * 3.5 + (1e9 - 333e6) * 2.8 + (requests - 1e9) * 2.38) / 1e6 / hoursPerMonth;
    expect(item({ ...quiet, requests: 1000 }, 'API Gateway requests')).toBeCloseTo(expected, 6);
    // Past 20 billion a month, $1.51 a million.
    const big = monthly(10_000);
    const bigExpected = (333e6 * 3.5 + 667e6 * 2.8 + 19e9 * 2.38 + (big - 20e9) * 1.51) / 1e6 / hoursPerMonth;
    expect(item({ ...quiet, requests: 10_000 }, 'API Gateway requests')).toBeCloseTo(bigExpected, 6);
  });

  test('the cache cluster by the hour, whatever the traffic', () => {
    expect(item(quiet, 'API Gateway cache cluster', '1.6')).toBe(0.038);
    expect(item(quiet, 'API Gateway cache cluster')).toBe(0);
  });

  test('WAF per request, with its web ACL and rules by the month; X-Ray per sampled trace', () => {
    const fixed = (5 + COST_ASSUMPTIONS.wafRules) / hoursPerMonth;
    expect(item({ ...quiet, requests: 100 }, 'AWS WAF')).toBeCloseTo(100 * 3600 * 0.6e-6 + fixed, 9);
    const traces = 100 * COST_ASSUMPTIONS.xRaySampledShare + COST_ASSUMPTIONS.xRayReservoirPerSecond;
    expect(item({ ...quiet, requests: 100 }, 'X-Ray')).toBeCloseTo(traces * 3600 * 5e-6, 9);
  });

  test('Lambda: requests, and GB-seconds from each function’s duration at the memory size', () => {
    const invocations = { ...none, getPet: 100, createPetIdempotent: 10 };
    const gbSeconds = (100 * 0.008 + 10 * 0.016) * 1; // 1,024 MB is 1 GB
    const expected = 110 * 3600 * 0.2e-6 + gbSeconds * 3600 * 0.0000133334;
    expect(item({ ...quiet, invocations }, 'Lambda')).toBeCloseTo(expected, 9);
  });

  test('DynamoDB by units; logs by bytes; transfer out by its tiers', () => {
    expect(item({ ...quiet, readUnits: 1000, writeUnits: 100 }, 'DynamoDB')).toBeCloseTo(
      1000 * 3600 * 0.125e-6 + 100 * 3600 * 0.625e-6,
      9,
    );
    const logBytes =
      10 * COST_ASSUMPTIONS.accessLogBytesPerRequest + 4 * COST_ASSUMPTIONS.lambdaLogBytesPerInvocation;
    const invocations = { ...none, listPets: 4 };
    expect(item({ ...quiet, requests: 10, invocations }, 'CloudWatch Logs')).toBeCloseTo(
      ((logBytes * 3600) / 2 ** 30) * 0.5,
      9,
    );
    // 1 MB/s is about 2,566 GB a month: the first 100 GB free, the rest at $0.09.
    const gbPerMonth = monthly(2 ** 20) / 2 ** 30;
    expect(item({ ...quiet, responseBytes: 2 ** 20 }, 'Data transfer')).toBeCloseTo(
      ((gbPerMonth - 100) * 0.09) / hoursPerMonth,
      6,
    );
  });

  test('the bench’s durations at a memory size it priced; another size is an error, not a guess', async () => {
    const at512 = await benchDurations(512);
    expect(at512.getPet).toBeGreaterThan(0);
    expect(at512.createPetIdempotent).toBeGreaterThan(at512.createPet);
    await expect(benchDurations(300)).rejects.toThrow('at 300 MB');
  });
});
