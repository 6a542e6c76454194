// Pets never change once created (the API has no update or delete), so a pet once read answers every
// later read of its id from memory: a popular pet costs one read per function instance, not one per
// request. Only pets found are kept, since a new pet reads at once. An operation that changed or
// removed pets would have to drop this cache first.
import type { Pet } from '#shared/schemas.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

/** Pets one instance keeps, the least recently read leaving first: a few megabytes at most. */
export const PET_READ_CACHE_ENTRIES = 10_000;

export function withPetReadCache(store: PetStore, entries = PET_READ_CACHE_ENTRIES): PetStore {
  if (entries < 1) return store;
  // A Map iterates in insertion order: re-inserting on each hit keeps the oldest first.
  const pets = new Map<bigint, Pet>();
  async function get(id: bigint): Promise<Pet | undefined> {
    const kept = pets.get(id);
    if (kept) {
      pets.delete(id);
      pets.set(id, kept);
      return kept;
    }
    const pet = await store.get(id);
    if (pet) pets.set(id, pet);
    if (pets.size > entries) {
      const [oldest] = pets.keys();
      if (oldest !== undefined) pets.delete(oldest);
    }
    return pet;
  }
  return { ...store, get };
}
