// PetStore on the single table: every pet lives in one partition ordered by id, and again in its
// status partition of the byStatus GSI. get is one GetItem; list is one Query (on the GSI when
// filtered) that reads limit + 1 items, the extra one only to know whether a next page exists.
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { Pet } from '#shared/schemas.ts';
import type { Item, TableGateway } from '#shared/store/dynamodb.ts';
import { createIdAllocator } from '#shared/store/id-allocator.ts';
import type { InsertResult, PetPage, PetPageRequest, PetStore } from '#shared/store/pet-store.ts';
import { toPet, toPetItem } from '#shared/store/pet-item.ts';
import { PET_PARTITION, idSortKey, petItemKey, statusPartition } from '#shared/store/table.ts';

/** Another tool may have written anything under a pet's key; only a pet item reads as a pet. */
const asPet = (item: Item | undefined) => (item?.type === 'pet' ? toPet(item) : undefined);

export function createDynamoDbPetStore(table: TableGateway): PetStore {
  async function get(id: bigint): Promise<Pet | undefined> {
    if (id > BigInt(PET_ID_MAX)) return undefined;
    return asPet(await table.get(petItemKey(Number(id))));
  }

  async function insert(pet: Pet): Promise<InsertResult> {
    if (await table.putIfAbsent(toPetItem(pet))) return { inserted: true };
    return { inserted: false, occupant: await get(BigInt(pet.id)) };
  }

  async function list({ limit, status, afterId = 0 }: PetPageRequest): Promise<PetPage> {
    const items = await table.query({
      partition: status ? statusPartition(status) : PET_PARTITION,
      onStatusIndex: status !== undefined,
      afterSortKey: idSortKey(afterId),
      limit: limit + 1,
    });
    const pets = items.slice(0, limit).map(toPet);
    return items.length > limit ? { pets, lastId: pets.at(-1)?.id } : { pets };
  }

  return { reserveId: createIdAllocator(table), insert, get, list };
}
