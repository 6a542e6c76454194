// PETSTORE_SEED=<n>: n believable pets in an empty table, so that a fresh local server has pages
// to walk, filters to try and a deprecated getPet to call. Every pet is created the one way pets
// are created (createPetOnce), and the same n always gives the same pets.
import { createPetOnce } from '#shared/idempotent-create.ts';
import type { PetCreation } from '#shared/idempotent-create.ts';
import { createObservability } from '#shared/observability.ts';
import { PET_STATUSES } from '#shared/schemas.ts';
import type { PetStatus } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { createIdempotencyRecords } from '#shared/store/idempotency-records.ts';

/** Enough for many pages at the largest page size, few enough to seed in seconds. */
export const MAX_SEED_PETS = 10_000;

const NAMES = [
  'Bella',
  'Max',
  'Luna',
  'Charlie',
  'Coco',
  'Rocky',
  'Daisy',
  'Milo',
  'Lola',
  'Oscar',
  'Nala',
  'Simba',
  'Zoë',
  'Pepper',
  'Biscuit',
  'Ginger',
  'Shadow',
  'Willow',
  'Mochi',
  'Bruno',
  'Hazel',
  'Tiger',
  'Olive',
  'Teddy',
  'Juniper',
  'Ziggy',
  'Pumpkin',
  'Noodle',
  'Kiwi',
  'Sushi',
  'Pip',
  'Chloé',
  'Mango',
  'Pretzel',
  'Captain Whiskers',
  'Sir Hops-a-Lot',
  'Blue',
  'Rosie',
  'Bandit',
  'Ásta',
] as const;
/** Category ids as a store would number them: dogs, cats, birds, fish, rabbits, reptiles, rodents, horses. */
const CATEGORY_IDS = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n] as const;
/** Most of a shop's animals are for sale; some are reserved, a few already sold. */
const STATUS_WEIGHTS: [PetStatus, number][] = [
  ['available', 0.6],
  ['pending', 0.25],
  ['sold', 0.15],
];

/** mulberry32: a tiny seeded generator, so a seed of n gives the same pets on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(values: readonly T[], random: () => number): T =>
  values[Math.floor(random() * values.length)] as T;

function weightedStatus(random: () => number): PetStatus {
  let roll = random();
  for (const [status, weight] of STATUS_WEIGHTS) if ((roll -= weight) < 0) return status;
  return 'available';
}

/** The i-th pet of a seed: the first three take one status each, so every filter finds some. */
function seedPet(index: number, random: () => number) {
  return {
    name: pick(NAMES, random),
    categoryId: pick(CATEGORY_IDS, random),
    status: PET_STATUSES[index] ?? weightedStatus(random),
  };
}

/** Adds `count` pets when the table has none; returns how many it added. */
async function seedPets(creation: PetCreation, count: number): Promise<number> {
  const { pets } = await creation.pets.list({ limit: 1 });
  if (pets.length > 0) return 0;
  const random = seededRandom(count);
  for (let index = 0; index < count; index++) {
    await createPetOnce(creation, seedPet(index, random), undefined);
  }
  return count;
}

/** PETSTORE_SEED on a local server's table, with one line that says what it did. */
export async function seedTable(table: TableClient, count: number, log: (line: string) => void) {
  if (count === 0) return;
  const creation = {
    pets: createDynamoDbPetStore(table),
    idempotencyRecords: createIdempotencyRecords(table),
    logger: createObservability({ metrics: false }).logger,
  };
  const added = await seedPets(creation, count);
  log(added > 0 ? `Seeded ${added} pets.` : 'PETSTORE_SEED: the table has pets already, so none were added.');
}
