// PetStore on the single table: pets sharded by id range (table.ts), each shard a partition ordered
// by id, and again in a partition of each filter's index (LIST_FILTERS). get is one GetItem on the key
// the id gives; list walks the shards in order, reading limit + 1 items: one Query, a second where the
// page reaches the next shard, and stops before shards no block of ids has reached (see list).
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { ListFilters, Pet } from '#shared/schemas.ts';
import type { Item, TableClient } from '#shared/store/dynamodb.ts';
import { createIdAllocator, leasedBlocks } from '#shared/store/id-allocator.ts';
import type { InsertResult, PetPage, PetPageRequest, PetStore } from '#shared/store/pet-store.ts';
import { toPet, toPetItem } from '#shared/store/pet-item.ts';
import {
  LIST_FILTERS,
  LIST_FILTER_NAMES,
  PET_SHARDS,
  filterPartition,
  idSortKey,
  petItemKey,
  petPartition,
} from '#shared/store/table.ts';
import type { ListFilterName } from '#shared/store/table.ts';

/** Another tool may have written anything under a pet's key; only a pet item reads as a pet. */
const asPet = (item: Item | undefined) => (item?.type === 'pet' ? toPet(item) : undefined);

/** Where a walk reads each shard: the pets' own partition, or the filter's index partition. */
function partitionsOf(filter: ListFilters) {
  const given = LIST_FILTER_NAMES.filter((name) => filter[name] !== undefined);
  if (given.length > 1)
    throw new Error(`listPets reads one index: ListPetsQuery must refuse ${given.join(' with ')}`);
  const [name] = given as [ListFilterName?];
  if (name === undefined) return { partition: petPartition, index: undefined };
  return {
    partition: (shard: number) => filterPartition(name, filter[name], shard),
    index: LIST_FILTERS[name].index,
  };
}

export type PetStoreOptions = {
  /** The shards the table's pets are spread over: a setting of the stage, fixed when the table is made. */
  shards?: number;
  /** Picks the id counter a grown table leases from (id-allocator.ts): a number in [0, 1). */
  pickCounter?: () => number;
};

export function createDynamoDbPetStore(
  table: TableClient,
  { shards = PET_SHARDS, pickCounter }: PetStoreOptions = {},
): PetStore {
  /**
   * Shards known to have had a block of ids: a Query that finds a pet proves its shard, and the id
   * counter, since blocks go round the shards in order, proves as many as it has counted. `endsEarly`:
   * the counter last said the catalogue ends before the last shard (a young table).
   */
  let shardsReached = 0;
  let endsEarly = false;
  const reached = (blocks: number) => {
    shardsReached = Math.max(shardsReached, Math.min(shards, blocks));
  };
  async function readCounter() {
    reached(await leasedBlocks(table));
    endsEarly = shardsReached < shards;
  }

  /**
   * A pet never changes, so an eventually consistent read that finds it is as good as a strong one, at
   * half the units; only where it finds nothing (a pet created a moment ago, or none) does a strongly
   * consistent read decide, so a client reads its new pet back at once.
   */
  async function get(id: bigint): Promise<Pet | undefined> {
    if (id > BigInt(PET_ID_MAX)) return undefined;
    const key = petItemKey(Number(id));
    return asPet((await table.get(key, { consistent: false })) ?? (await table.get(key)));
  }

  async function insert(pet: Pet): Promise<InsertResult> {
    if (await table.putIfAbsent(toPetItem(pet))) return { inserted: true };
    return { inserted: false, occupant: await get(BigInt(pet.id)) };
  }

  /**
   * A page queries the next shard without asking the counter first, and asks it (once a page at most)
   * only where a shard not proven yet answers with nothing: so a page costs two requests at most where
   * it crosses into a shard with pets. On a young table the counter comes first instead, as there the
   * walk mostly ends before the last shard.
   */
  async function list({
    limit,
    filter = {},
    after = { shard: 0, afterId: 0 },
  }: PetPageRequest): Promise<PetPage> {
    const { partition, index } = partitionsOf(filter);
    const found: { item: Item; shard: number }[] = [];
    let counterRead = false;
    const unproven = async (shard: number) => {
      if (shard < shardsReached) return false;
      if (!counterRead) await readCounter();
      counterRead = true;
      return shard >= shardsReached;
    };
    for (let shard = after.shard; shard < shards && found.length <= limit; shard++) {
      if (endsEarly && (await unproven(shard))) break;
      const items = await table.query({
        partition: partition(shard),
        index,
        // Ids grow from shard to shard: every pet of a later shard comes after the position's id too.
        afterSortKey: idSortKey(after.afterId),
        limit: limit + 1 - found.length,
      });
      found.push(...items.map((item) => ({ item, shard })));
      if (items.length > 0) reached(shard + 1);
      else if (await unproven(shard)) break;
    }
    const pets = found.slice(0, limit).map(({ item }) => toPet(item));
    const following = found[limit];
    return following ? { pets, next: { shard: following.shard, afterId: pets.at(-1)?.id ?? 0 } } : { pets };
  }

  const ids = createIdAllocator(table, shards, { onLease: reached, random: pickCounter });
  return {
    reserveId: ids.reserve,
    returnId: ids.giveBack,
    insert,
    get,
    list,
  };
}
