// A pet as a DynamoDB item and back, derived from the Pet schema: each field is stored under its own
// name and read back by its schema's kind, so that a field added to shared/schemas.ts is written, read,
// listed and replayed with no edit here. A kind this codec cannot read back fails at import, by name.
import { stringifyJson } from '#shared/json.ts';
import { NewPet, Pet } from '#shared/schemas.ts';
import type { Item } from '#shared/store/dynamodb.ts';
import {
  SECONDARY_INDEXES,
  TABLE_KEY,
  TTL_ATTRIBUTE,
  petIndexKeys,
  petItemKey,
} from '#shared/store/table.ts';

type FieldSchema = { _zod: { def: { type: string; innerType?: FieldSchema } } };
type Decode = (value: unknown) => unknown;

/**
 * How a stored value of each schema kind comes back. Numbers arrive exact (dynamodb.ts): an integer
 * beyond 2^53 as a bigint, which a bigint field keeps and a number field could not hold anyway.
 */
const DECODERS: Record<string, Decode> = {
  string: String,
  enum: String,
  number: Number,
  bigint: (value) => BigInt(value as bigint | number | string),
  boolean: Boolean,
};

/** What a pet's item carries besides its fields: a field of one of these names would overwrite it. */
const ITEM_ATTRIBUTES = new Set<string>([
  ...Object.values(TABLE_KEY),
  ...SECONDARY_INDEXES.flatMap(({ partitionKey, sortKey }) => [partitionKey, sortKey]),
  TTL_ATTRIBUTE,
  'type',
]);

export type PetCodec = ReturnType<typeof createPetCodec>;

/** The codec of a pet schema: `Pet` for the service; a test passes an extended one. */
export function createPetCodec<Shape extends Record<string, FieldSchema>>(schema: {
  _zod: { def: { shape: Shape } };
}) {
  const fields = Object.entries(schema._zod.def.shape).map(([name, field]) => {
    const optional = field._zod.def.type === 'optional';
    const kind = (optional ? field._zod.def.innerType : field)?._zod.def.type ?? 'unknown';
    const decode = DECODERS[kind];
    if (!decode)
      throw new Error(`Pet field "${name}" is a ${kind}: give it a decoder in shared/store/pet-item.ts`);
    if (ITEM_ATTRIBUTES.has(name))
      throw new Error(`Pet field "${name}" has the name of a table attribute (shared/store/table.ts)`);
    return { name, optional, decode };
  });

  return {
    toItem: (pet: Pet): Item => {
      const item: Item = { ...petItemKey(pet.id), ...petIndexKeys(pet), type: 'pet' };
      for (const { name } of fields) {
        const value = (pet as Record<string, unknown>)[name];
        if (value !== undefined) item[name] = value;
      }
      return item;
    },
    fromItem: (item: Item): Pet => {
      const pet: Record<string, unknown> = {};
      for (const { name, optional, decode } of fields) {
        const value: unknown = item[name];
        if (value !== undefined || !optional) pet[name] = decode(value);
      }
      return pet as Pet;
    },
  };
}

export const { toItem: toPetItem, fromItem: toPet } = createPetCodec(Pet);

/** Whether a stored pet is the one this NewPet creates: each field of NewPet's schema, compared as JSON. */
export function isPetOf(stored: Pet | undefined, newPet: NewPet): boolean {
  if (stored === undefined) return false;
  const field = (pet: object, name: string) => stringifyJson((pet as Record<string, unknown>)[name]);
  return Object.keys(NewPet._zod.def.shape).every((name) => field(stored, name) === field(newPet, name));
}
