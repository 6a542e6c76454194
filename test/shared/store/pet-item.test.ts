// The pet item codec over this file's table in the test DynamoDB: PET_FIELDS says what the Pet schema
// says, a field added to it is stored and read back with no other edit, items written before keep
// reading, and a field that would overwrite a table attribute or an item without a field is refused.
import { describe, expect, it } from '@jest/globals';
import { Pet } from '#shared/schemas.ts';
import { PET_FIELDS, createPetCodec, isPetOf, toPet, toPetItem } from '#shared/store/pet-item.ts';
import { petItemKey } from '#shared/store/table.ts';
import { testTable } from '#test/support/test-table.ts';

const PET = { id: 7, name: 'Rex', categoryId: 2n ** 63n - 1n, status: 'sold' } as const;

type FieldSchema = { _zod: { def: { type: string; innerType?: FieldSchema } } };
/** The codec's kind of a zod type: an enum is stored as its string. */
const KINDS: Record<string, string> = {
  string: 'string',
  enum: 'string',
  number: 'number',
  bigint: 'bigint',
};

describe('the pet codec', () => {
  it("gives every field of the Pet schema the schema's kind, and says which are optional", () => {
    const shape = Pet._zod.def.shape as Record<string, FieldSchema>;
    const fromSchema = Object.entries(shape).map(([name, { _zod }]) => {
      const optional = _zod.def.type === 'optional';
      const type = (optional ? _zod.def.innerType?._zod.def.type : _zod.def.type) ?? '';
      return [name, { kind: KINDS[type] ?? type, ...(optional && { optional }) }];
    });
    expect(PET_FIELDS).toEqual(Object.fromEntries(fromSchema));
  });

  it('stores and reads back fields added to Pet, leaving out an optional one not given', async () => {
    const { toItem, fromItem } = createPetCodec({
      ...PET_FIELDS,
      birthDate: { kind: 'string', optional: true },
      vaccinated: { kind: 'boolean', optional: true },
    });
    const dated = { ...PET, id: 8, birthDate: '2026-01-31', vaccinated: false };
    for (const pet of [dated, PET]) {
      expect(await testTable.putIfAbsent(toItem(pet))).toBe(true);
      expect(fromItem((await testTable.get(petItemKey(pet.id))) ?? {})).toStrictEqual(pet);
    }
  });

  it('reads a pet item as the code before the codec wrote it, and writes the same item', async () => {
    const written = {
      pk: 'PET#0',
      sk: '0000000000000009',
      gsi1pk: 'STATUS#sold#0',
      gsi1sk: '0000000000000009',
      type: 'pet',
      id: 9,
      name: 'Old',
      categoryId: 9_223_372_036_854_775_807n,
      status: 'sold',
    };
    expect(await testTable.putIfAbsent(written)).toBe(true);
    const pet = toPet((await testTable.get(petItemKey(9))) ?? {});
    expect(pet).toStrictEqual({ id: 9, name: 'Old', categoryId: 2n ** 63n - 1n, status: 'sold' });
    expect(toPetItem(pet)).toStrictEqual(written);
  });

  it('refuses a field named like a table attribute, and an item without a required field', () => {
    expect(() => createPetCodec({ ...PET_FIELDS, pk: { kind: 'string' } })).toThrow(
      'Pet field "pk" has the name of a table attribute',
    );
    const { name: _name, ...nameless } = toPetItem(PET);
    expect(() => toPet(nameless)).toThrow('The pet item 0000000000000007 has no name');
  });

  it("compares a stored pet with a NewPet on every field but the id, categoryId's digits included", () => {
    const newPet = { name: PET.name, categoryId: PET.categoryId, status: PET.status };
    expect(isPetOf(PET, newPet)).toBe(true);
    expect(isPetOf(PET, { ...newPet, categoryId: PET.categoryId - 1n })).toBe(false);
    expect(isPetOf(PET, { ...newPet, status: 'available' })).toBe(false);
    expect(isPetOf(undefined, newPet)).toBe(false);
  });
});
