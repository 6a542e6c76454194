// A pet as a DynamoDB item and back: each field of the Pet schema under its own name, read back by its
// kind. PET_FIELDS is plain data (no schema is built at a cold start), typed from the schema's type:
// a field added to Pet fails the type check here until it has its kind. The replay compares by it too.
import { stringifyJson } from '#shared/json.ts';
import type { NewPet, Pet } from '#shared/schemas.ts';
import type { Item } from '#shared/store/dynamodb.ts';
import {
  SECONDARY_INDEXES,
  TABLE_KEY,
  TTL_ATTRIBUTE,
  petIndexKeys,
  petItemKey,
} from '#shared/store/table.ts';

/**
 * How a stored value of each kind comes back. Numbers arrive exact (dynamodb.ts): an integer beyond
 * 2^53 as a bigint, which a bigint field keeps and a number field could not hold anyway.
 */
const DECODERS = {
  string: String,
  number: Number,
  bigint: (value: unknown) => BigInt(value as bigint | number | string),
  boolean: Boolean,
};
type Kind = keyof typeof DECODERS;
type KindOf<T> = T extends bigint
  ? 'bigint'
  : T extends number
    ? 'number'
    : T extends boolean
      ? 'boolean'
      : T extends string
        ? 'string'
        : never;
type FieldOf<T> = undefined extends T
  ? { kind: KindOf<Exclude<T, undefined>>; optional: true }
  : { kind: KindOf<T>; optional?: false };
export type PetField = { kind: Kind; optional?: boolean };

/** Each field of Pet and its kind; an optional field is left out of an item that has no value. */
export const PET_FIELDS: { [Name in keyof Required<Pet>]: FieldOf<Pet[Name]> } = {
  id: { kind: 'number' },
  name: { kind: 'string' },
  categoryId: { kind: 'bigint' },
  status: { kind: 'string' },
};

/** What a pet's item carries besides its fields: a field of one of these names would overwrite it. */
const ITEM_ATTRIBUTES = new Set<string>([
  ...Object.values(TABLE_KEY),
  ...SECONDARY_INDEXES.flatMap(({ partitionKey, sortKey }) => [partitionKey, sortKey]),
  TTL_ATTRIBUTE,
  'type',
]);

/** The codec of a set of pet fields: PET_FIELDS for the service; a test passes more. */
export function createPetCodec(fields: Record<string, PetField>) {
  const clash = Object.keys(fields).find((name) => ITEM_ATTRIBUTES.has(name));
  if (clash)
    throw new Error(`Pet field "${clash}" has the name of a table attribute (shared/store/table.ts)`);
  const entries = Object.entries(fields);

  return {
    toItem: (pet: Pet): Item => {
      const item: Item = { ...petItemKey(pet.id), ...petIndexKeys(pet), type: 'pet' };
      for (const [name] of entries) {
        const value = (pet as Record<string, unknown>)[name];
        if (value !== undefined) item[name] = value;
      }
      return item;
    },
    /** A required field an item lacks is an error, never a made-up value. */
    fromItem: (item: Item): Pet => {
      const pet: Record<string, unknown> = {};
      for (const [name, { kind, optional }] of entries) {
        const value: unknown = item[name];
        if (value === undefined && optional) continue;
        if (value === undefined) throw new Error(`The pet item ${String(item.sk)} has no ${name}`);
        pet[name] = DECODERS[kind](value);
      }
      return pet as Pet;
    },
  };
}

export const { toItem: toPetItem, fromItem: toPet } = createPetCodec(PET_FIELDS);

/** Whether a stored pet is the one this NewPet creates: each field but the id, compared as JSON. */
export function isPetOf(stored: Pet | undefined, newPet: NewPet): boolean {
  if (stored === undefined) return false;
  const field = (pet: object, name: string) => stringifyJson((pet as Record<string, unknown>)[name]);
  return Object.keys(PET_FIELDS).every(
    (name) => name === 'id' || field(stored, name) === field(newPet, name),
  );
}
