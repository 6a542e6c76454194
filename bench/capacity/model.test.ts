// The capacity model's arithmetic on hand-made samples: units per key scaled to a rate under one
// budget, the ceiling and the key that sets it, and caches that let a key's misses reach DynamoDB.
import { describe, expect, test } from '@jest/globals';
import { ceilingOf, loadAt, missShare, operationSample } from '#bench/capacity/model.ts';
import type { Sample } from '#bench/capacity/model.ts';
import { getItem as get, putPet as put, recorded as request } from '#bench/capacity/traces.ts';

describe('load per partition key', () => {
  const sample: Sample = {
    size: 4,
    requests: [
      request('getPet', [get('PET')]),
      request('getPet', [get('PET', false)]),
      request('createPet', [put('PET', 'STATUS#available')]),
      request('createPet', [put('PET', 'STATUS#sold')]),
    ],
  };

  test('scales each request to its share of the rate, the table and the index apart', () => {
    const loads = loadAt(sample, 1000);
    expect(loads).toEqual([
      // Reads and writes draw on one budget: 375 / 3,000 + 500 / 1,000.
      { partition: 'PET', readUnits: 375, writeUnits: 500, share: 0.625 },
      { index: 'byStatus', partition: 'STATUS#available', readUnits: 0, writeUnits: 250, share: 0.25 },
      { index: 'byStatus', partition: 'STATUS#sold', readUnits: 0, writeUnits: 250, share: 0.25 },
    ]);
  });

  test('the ceiling is the rate at which the hottest key reaches its limit, and names that key', () => {
    const ceiling = ceilingOf(sample);
    expect(ceiling.rate).toBeCloseTo(1600, 0);
    expect(ceiling.key?.partition).toBe('PET');
  });

  test('each operation alone has its own ceiling, in its own requests a second', () => {
    expect(ceilingOf(operationSample(sample, 'createPet')).rate).toBeCloseTo(1000, 0);
    expect(ceilingOf(operationSample(sample, 'getPet')).rate).toBeCloseTo(4000, 0);
    // 80% of the budget: the planned share.
    expect(ceilingOf(operationSample(sample, 'createPet'), 0.8).rate).toBeCloseTo(800, 0);
  });
});

describe('caches', () => {
  test('a cached key reaches DynamoDB once per miss: r / (1 + r * ttl) times a second', () => {
    const cached: Sample = {
      size: 2,
      requests: [
        request('listPets', [get('PET')], { cache: { key: 'limit=20', ttlSeconds: 5 } }),
        request('listPets', [get('PET')], { cache: { key: 'limit=20', ttlSeconds: 5 } }),
      ],
    };
    // 100 requests a second on one cache key: a miss, then 5 s of hits.
    expect(loadAt(cached, 100)[0]?.readUnits).toBeCloseTo(100 / (1 + 100 * 5), 6);
  });

  test("an operation's miss share: its cached requests' misses over all its requests", () => {
    const lists: Sample = {
      size: 2,
      requests: [
        request('listPets', [get('PET')], { cache: { key: 'page one', ttlSeconds: 5 } }),
        request('listPets', [get('PET')]),
      ],
    };
    // At 2 requests/s: 1 a second on the cached key misses 1 / (1 + 1 * 5); the other always misses.
    expect(missShare(lists, 2, 'listPets')).toBeCloseTo((1 / 6 + 1) / 2, 6);
    expect(missShare(lists, 2, 'getPet')).toBe(0);
  });

  test('a request that stands for many (one authorizer call per key) counts as many', () => {
    const authorizer: Sample = {
      size: 10,
      requests: [request('authorizer', [get('APIKEY')], { count: 10, cache: { key: 'k', ttlSeconds: 300 } })],
    };
    expect(loadAt(authorizer, 10)[0]?.readUnits).toBeCloseTo(10 / (1 + 10 * 300), 6);
  });

  test('a load that stops growing with the rate has no ceiling', () => {
    const authorizer: Sample = {
      size: 1,
      requests: [request('authorizer', [get('APIKEY')], { cache: { key: 'k', ttlSeconds: 300 } })],
    };
    expect(ceilingOf(authorizer).rate).toBe(Infinity);
  });
});
