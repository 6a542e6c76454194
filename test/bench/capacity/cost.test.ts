// The mix's cost at a rate, from the bench's committed cost model: per million calls of each
// operation, a cached list paying API Gateway only, and the cache cluster by the hour.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import type { CostModel } from '#bench/cost.ts';
import { costAtRate } from '#bench/capacity/cost.ts';

const { cost } = JSON.parse(
  readFileSync(new URL('../../../bench/results.json', import.meta.url), 'utf8'),
) as {
  cost: CostModel;
};
const lines = cost.byMemory.find(({ memoryMb }) => memoryMb === 512)?.lines ?? [];
const total = (operation: string) => lines.find((line) => line.operation === operation)?.total ?? NaN;
const shares = { listPets: 0.7, getPet: 0.2, createPet: 0.1, idempotencyKey: 0.25 };

describe('cost at a rate', () => {
  test('without a cache: each operation at its share of the rate, per million calls', async () => {
    const perMillion =
      0.7 * total('listPets ?status=') +
      0.2 * total('getPet') +
      0.1 * (0.75 * total('createPet') + 0.25 * total('createPet + Idempotency-Key'));
    const { perHour, perMonth } = await costAtRate(1000, shares, { memoryMb: 512, listCacheHits: 0 });
    expect(perHour).toBeCloseTo((1000 * 3600 * perMillion) / 1e6, 6);
    expect(perMonth).toBeCloseTo(perHour * 730, 6);
  });

  test('a list the cache answers pays API Gateway alone; the cluster costs by the hour', async () => {
    const onlyLists = { listPets: 1, getPet: 0, createPet: 0, idempotencyKey: 0 };
    const { perHour } = await costAtRate(1000, onlyLists, { memoryMb: 512, listCacheHits: 1 });
    expect(perHour).toBeCloseTo((1000 * 3600 * 3.5) / 1e6 + 0.02, 6);
  });

  test('a memory size the bench did not price is an error, not a guess', async () => {
    await expect(costAtRate(1, shares, { memoryMb: 300, listCacheHits: 0 })).rejects.toThrow('at 300 MB');
  });
});
