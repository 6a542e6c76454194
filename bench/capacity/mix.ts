// The workload the capacity model runs, written down: which operations, how lists page and filter,
// how many creates carry an Idempotency-Key, how unevenly the API keys share the traffic, and the
// catalogue the traffic meets. The plan it draws is the same for the same seed, so two runs measure
// the same requests.
import { seededRandom } from '../../local/dynamodb/seed-pets.ts';
import type { PetStatus } from '../../shared/schemas.ts';

export type Mix = {
  /** API requests in the sample the model scales up. */
  sampleRequests: number;
  /**
   * Pets in the table before the sample runs: what the sample's lists page through and getPet reads.
   * A multiple of every shard's first blocks, so that the sample's pets spread evenly.
   */
  seededPets: number;
  /**
   * The catalogue the caches meet: it grows at the target's create rate for this many hours, so
   * that later pages and pets are spread over that many more cache entries than the sample has.
   */
  catalogueHours: number;
  apiKeys: number;
  /** Key i (from 1) sends in proportion to 1 / i^keySkew: a Zipf law. */
  keySkew: number;
  /** The client addresses each key's requests come from, evenly: what the firewall's per-IP rule counts. */
  addressesPerKey: number;
  /** The least time traffic takes from nothing to the target: what Lambda's scaling rate is held to. */
  rampSeconds: number;
  shares: { listPets: number; getPet: number; createPet: number };
  list: {
    /** The page sizes clients ask for, by share. */
    limits: Record<string, number>;
    statusFiltered: number;
    firstPage: number;
    statuses: Record<PetStatus, number>;
    /**
     * From a stage cache miss to its answer being cached: requests for the entry meanwhile miss too,
     * so a popular entry lets that many through each time it expires.
     */
    cacheFillSeconds: number;
  };
  /** Of getPet requests, the share that asks for one popular pet; the rest ask for any pet. */
  get: { hotPet: number };
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
  seededPets: 6_400,
  catalogueHours: 1,
  apiKeys: 1_000,
  keySkew: 1,
  addressesPerKey: 4,
  rampSeconds: 60,
  shares: { listPets: 0.7, getPet: 0.2, createPet: 0.1 },
  list: {
    limits: { 20: 0.6, 50: 0.25, 100: 0.15 },
    statusFiltered: 0.5,
    firstPage: 0.8,
    statuses: { available: 0.6, pending: 0.2, sold: 0.2 },
    cacheFillSeconds: 0.05,
  },
  get: { hotPet: 0.2 },
  create: { idempotencyKey: 0.25, statuses: { available: 0.8, pending: 0.1, sold: 0.1 } },
  createInstances: 16,
  seed: 26,
};

/** The cache key of getPet's requests for the popular pet: what the model finds its one item by. */
export const POPULAR_PET_CACHE_KEY = 'the popular pet';

/** The rates the layout must carry together: the mix's request rate is the least that meets both. */
export const TARGET = { createsPerSecond: 10_000, readsPerSecond: 50_000 } as const;

export type PlannedRequest = { apiKey: number } & (
  | { operation: 'listPets'; limit: number; status?: PetStatus; firstPage: boolean }
  | { operation: 'getPet'; hotPet: boolean }
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

/** The busiest key's share of all requests under the Zipf law. */
export function busiestKeyShare({ apiKeys, keySkew }: Mix): number {
  let total = 0;
  for (let key = 1; key <= apiKeys; key++) total += 1 / key ** keySkew;
  return 1 / total;
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
    if (operation === 'getPet') return { apiKey, operation, hotPet: random() < mix.get.hotPet };
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
      limit: Number(weighted(mix.list.limits, random())),
      ...(filtered && { status: weighted(mix.list.statuses, random()) }),
      firstPage: random() < mix.list.firstPage,
    };
  });
}
