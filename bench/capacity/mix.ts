// The workload the capacity model runs, written down: which operations, how lists page and filter,
// how many creates carry an Idempotency-Key, and how unevenly the API keys share the traffic. The
// plan it draws is the same for the same seed, so two runs measure the same requests.
import { seededRandom } from '#local/dynamodb/seed-pets.ts';
import type { PetStatus } from '#shared/schemas.ts';

export type Mix = {
  /** API requests in the sample the model scales up. */
  sampleRequests: number;
  /** Pets in the table before the sample runs: what lists page through and getPet reads. */
  seededPets: number;
  apiKeys: number;
  /** Key i (from 1) sends in proportion to 1 / i^keySkew: a Zipf law. */
  keySkew: number;
  shares: { listPets: number; getPet: number; createPet: number };
  list: { limit: number; statusFiltered: number; firstPage: number; statuses: Record<PetStatus, number> };
  create: { idempotencyKey: number; statuses: Record<PetStatus, number> };
  /**
   * createPet instances the creates are spread over, as concurrent Lambda instances are: each
   * leases its own block of ids.
   */
  createInstances: number;
  seed: number;
};

export const DEFAULT_MIX: Mix = {
  sampleRequests: 20_000,
  seededPets: 5_000,
  apiKeys: 1_000,
  keySkew: 1,
  shares: { listPets: 0.7, getPet: 0.2, createPet: 0.1 },
  list: {
    limit: 20,
    statusFiltered: 0.5,
    firstPage: 0.8,
    statuses: { available: 0.6, pending: 0.2, sold: 0.2 },
  },
  create: { idempotencyKey: 0.25, statuses: { available: 0.8, pending: 0.1, sold: 0.1 } },
  createInstances: 16,
  seed: 26,
};

/** The rates the layout must carry together: the mix's request rate is the least that meets both. */
export const TARGET = { createsPerSecond: 10_000, readsPerSecond: 50_000 } as const;

export type PlannedRequest = { apiKey: number } & (
  | { operation: 'listPets'; status?: PetStatus; firstPage: boolean }
  | { operation: 'getPet' }
  | { operation: 'createPet'; status: PetStatus; idempotencyKey: boolean }
);

/** Picks from weighted choices with one draw in [0, 1). */
function weighted<T extends string>(weights: Record<T, number>, draw: number): T {
  const entries = Object.entries(weights) as [T, number][];
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let left = draw * total;
  let choice = entries[0]?.[0];
  for (const [candidate, weight] of entries) {
    choice = candidate;
    if ((left -= weight) < 0) break;
  }
  if (choice === undefined) throw new Error('Nothing to choose from');
  return choice;
}

/** The keys' cumulative shares under the Zipf law, for a binary search per draw. */
function keyPicker({ apiKeys, keySkew }: Mix) {
  const cumulative: number[] = [];
  let total = 0;
  for (let key = 1; key <= apiKeys; key++) cumulative.push((total += 1 / key ** keySkew));
  return (draw: number) => {
    const target = draw * total;
    let [low, high] = [0, cumulative.length - 1];
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] ?? Infinity) > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}

export function planRequests(mix: Mix): PlannedRequest[] {
  const random = seededRandom(mix.seed);
  const pickKey = keyPicker(mix);
  return Array.from({ length: mix.sampleRequests }, (): PlannedRequest => {
    const apiKey = pickKey(random());
    const operation = weighted(mix.shares, random());
    if (operation === 'getPet') return { apiKey, operation };
    if (operation === 'createPet')
      return {
        apiKey,
        operation,
        status: weighted(mix.create.statuses, random()),
        idempotencyKey: random() < mix.create.idempotencyKey,
      };
    const filtered = random() < mix.list.statusFiltered;
    return {
      apiKey,
      operation,
      ...(filtered && { status: weighted(mix.list.statuses, random()) }),
      firstPage: random() < mix.list.firstPage,
    };
  });
}
