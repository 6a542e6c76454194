// PetStore on the single table: every pet lives in one partition ordered by id, and again in its
// status partition of the byStatus GSI. get is one GetItem; list is one Query (on the GSI when
// filtered) that reads limit + 1 items, the extra one only to know whether a next page exists.
// Reads of the table are strongly consistent, so a client reads its own writes (a GET of the
// Location just answered); the GSI can only be eventually consistent.
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { NewPet, Pet } from '#shared/schemas.ts';
import { documentClient, send, sendConditional, tableName } from '#shared/store/dynamodb.ts';
import { createIdAllocator } from '#shared/store/id-allocator.ts';
import type { PetPage, PetPageRequest, PetStore } from '#shared/store/pet-store.ts';
import { toPet, toPetItem } from '#shared/store/pet-item.ts';
import type { Item } from '#shared/store/pet-item.ts';
import {
  IF_ABSENT,
  PET_PARTITION,
  STATUS_INDEX,
  TABLE_KEY,
  idSortKey,
  petKey,
  statusPartition,
} from '#shared/store/table.ts';

/** A conditional Put: an id is written once, never overwritten. False when the id is taken. */
const putNewPet = (pet: Pet) =>
  sendConditional(() =>
    documentClient.send(
      new PutCommand({ TableName: tableName, Item: toPetItem(pet), ConditionExpression: IF_ABSENT }),
    ),
  );

function pageQuery({ status, afterId = 0 }: PetPageRequest) {
  const [partitionKey, sortKey, partition] = status
    ? [STATUS_INDEX.partitionKey, STATUS_INDEX.sortKey, statusPartition(status)]
    : [TABLE_KEY.partitionKey, TABLE_KEY.sortKey, PET_PARTITION];
  return {
    TableName: tableName,
    ...(status ? { IndexName: STATUS_INDEX.name } : { ConsistentRead: true }),
    KeyConditionExpression: '#partition = :partition AND #sort > :after',
    ExpressionAttributeNames: { '#partition': partitionKey, '#sort': sortKey },
    ExpressionAttributeValues: { ':partition': partition, ':after': idSortKey(afterId) },
  };
}

export function createDynamoDbPetStore(): PetStore {
  const nextId = createIdAllocator();

  async function get(id: bigint): Promise<Pet | undefined> {
    if (id > BigInt(PET_ID_MAX)) return undefined;
    const { Item } = await send(() =>
      documentClient.send(
        new GetCommand({ TableName: tableName, Key: petKey(Number(id)), ConsistentRead: true }),
      ),
    );
    return Item && toPet(Item);
  }

  async function insert(pet: Pet): Promise<Pet> {
    if (await putNewPet(pet)) return pet;
    const stored = await get(BigInt(pet.id));
    if (!stored) throw new Error(`Pet ${pet.id} is taken but cannot be read`);
    return stored;
  }

  return {
    reserveId: nextId,
    insert,
    get,

    async create(newPet: NewPet): Promise<Pet> {
      const pet = { id: await nextId(), ...newPet };
      if (!(await putNewPet(pet)))
        throw new Error(`Fresh pet id ${pet.id} is taken: the id counter is behind`);
      return pet;
    },

    async list(request: PetPageRequest): Promise<PetPage> {
      const wanted = request.limit + 1;
      const items: Item[] = [];
      let startKey: Item | undefined;
      // One Query in practice; the loop only covers DynamoDB's 1 MB page cut.
      do {
        const page = await send(() =>
          documentClient.send(
            new QueryCommand({
              ...pageQuery(request),
              Limit: wanted - items.length,
              ExclusiveStartKey: startKey,
            }),
          ),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey && items.length < wanted);
      const pets = items.slice(0, request.limit).map(toPet);
      return items.length > request.limit ? { pets, lastId: pets.at(-1)?.id } : { pets };
    },
  };
}

export const petStore: PetStore = createDynamoDbPetStore();
