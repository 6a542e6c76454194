// A pet as a DynamoDB item and back. Numbers arrive as exact values (see dynamodb.ts), so
// categoryId is rebuilt as a bigint whatever its size.
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Pet } from '#shared/schemas.ts';
import { petIndexKey, petKey } from '#shared/store/table.ts';

export type Item = Record<string, NativeAttributeValue>;

export const toPetItem = (pet: Pet): Item => ({
  ...petKey(pet.id),
  ...petIndexKey(pet.id, pet.status),
  type: 'pet',
  ...pet,
});

export const toPet = (item: Item): Pet => ({
  id: Number(item.id),
  name: String(item.name),
  categoryId: BigInt(item.categoryId),
  status: item.status,
});
