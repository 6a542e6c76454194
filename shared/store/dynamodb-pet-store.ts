// PetStore on the single table: pets sharded by id range (table.ts), each shard a partition ordered
// by id, and again in its status partition of the byStatus GSI. get is one GetItem on the key the id
// gives; list walks the shards in order, reading limit + 1 items: one Query, a second where the page
// reaches the next shard. Shards no block of ids has reached yet hold no pet: the walk stops there.
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { Pet } from '#shared/schemas.ts';
import type { Item, TableGateway } from '#shared/store/dynamodb.ts';
import { createIdAllocator, leasedBlocks } from '#shared/store/id-allocator.ts';
import type { InsertResult, PetPage, PetPageRequest, PetStore } from '#shared/store/pet-store.ts';
import { toPet, toPetItem } from '#shared/store/pet-item.ts';
import { PET_SHARDS, idSortKey, petItemKey, petPartition, statusPartition } from '#shared/store/table.ts';

/** Another tool may have written anything under a pet's key; only a pet item reads as a pet. */
const asPet = (item: Item | undefined) => (item?.type === 'pet' ? toPet(item) : undefined);

export type PetStoreOptions = {
  /** The shards the table's pets are spread over: a setting of the stage, fixed when the table is made. */
  shards?: number;
};

export function createDynamoDbPetStore(
  table: TableGateway,
  { shards = PET_SHARDS }: PetStoreOptions = {},
): PetStore {
  /**
   * Shards known to have had a block of ids (blocks go round the shards in order): never more than
   * have. The first shard is always read; past the known ones, the counter is read again.
   */
  let shardsReached = 1;
  const reached = (blocks: number) => {
    shardsReached = Math.max(shardsReached, Math.min(shards, blocks));
  };
  async function reachedShard(shard: number): Promise<boolean> {
    if (shard >= shardsReached && shardsReached < shards) reached(await leasedBlocks(table));
    return shard < shardsReached;
  }

  async function get(id: bigint): Promise<Pet | undefined> {
    if (id > BigInt(PET_ID_MAX)) return undefined;
    return asPet(await table.get(petItemKey(Number(id))));
  }

  async function insert(pet: Pet): Promise<InsertResult> {
    if (await table.putIfAbsent(toPetItem(pet))) return { inserted: true };
    return { inserted: false, occupant: await get(BigInt(pet.id)) };
  }

  async function list({ limit, status, after = { shard: 0, afterId: 0 } }: PetPageRequest): Promise<PetPage> {
    const found: { item: Item; shard: number }[] = [];
    for (let shard = after.shard; found.length <= limit && (await reachedShard(shard)); shard++) {
      const items = await table.query({
        partition: status ? statusPartition(status, shard) : petPartition(shard),
        onStatusIndex: status !== undefined,
        // Ids grow from shard to shard: every pet of a later shard comes after the position's id too.
        afterSortKey: idSortKey(after.afterId),
        limit: limit + 1 - found.length,
      });
      found.push(...items.map((item) => ({ item, shard })));
    }
    const pets = found.slice(0, limit).map(({ item }) => toPet(item));
    const following = found[limit];
    return following ? { pets, next: { shard: following.shard, afterId: pets.at(-1)?.id ?? 0 } } : { pets };
  }

  return { reserveId: createIdAllocator(table, shards, reached), insert, get, list };
}
