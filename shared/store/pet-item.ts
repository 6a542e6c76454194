// A pet as a DynamoDB item and back. Numbers arrive as exact values (see dynamodb.ts), so
// categoryId is rebuilt as a bigint whatever its size.
import type { Pet } from '#shared/schemas.ts';
import type { Item } from '#shared/store/dynamodb.ts';
import { petItemKey, petStatusIndexKey } from '#shared/store/table.ts';

export const toPetItem = (pet: Pet): Item => ({
  ...petItemKey(pet.id),
  ...petStatusIndexKey(pet.id, pet.status),
  type: 'pet',
  ...pet,
});

export const toPet = (item: Item): Pet => ({
  id: Number(item.id),
  name: String(item.name),
  categoryId: BigInt(item.categoryId),
  status: item.status,
});
