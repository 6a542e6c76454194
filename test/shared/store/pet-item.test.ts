// The pet codec derived from a pet schema, over this file's table in the test DynamoDB: a field added
// to the schema is stored and read back with no edit to the codec, and a field it could not read
// back, or one that would overwrite a table attribute, is refused when the codec is built.
import { describe, expect, it } from '@jest/globals';
import * as z from 'zod/mini';
import { Pet } from '#shared/schemas.ts';
import { createPetCodec, isPetOf, toPetItem } from '#shared/store/pet-item.ts';
import { petItemKey } from '#shared/store/table.ts';
import { testTable } from '#test/support/test-table.ts';

const PET = { id: 7, name: 'Rex', categoryId: 2n ** 63n - 1n, status: 'sold' } as const;

describe('the pet codec', () => {
  it('stores and reads back a field added to the schema, and leaves out an optional one not given', async () => {
    const { toItem, fromItem } = createPetCodec(
      z.extend(Pet, { birthDate: z.optional(z.string()), vaccinated: z.optional(z.boolean()) }),
    );
    const dated = { ...PET, id: 8, birthDate: '2026-01-31', vaccinated: false };
    for (const pet of [dated, PET]) {
      expect(await testTable.putIfAbsent(toItem(pet))).toBe(true);
      expect(fromItem((await testTable.get(petItemKey(pet.id))) ?? {})).toStrictEqual(pet);
    }
  });

  it('writes the pet under its key with the index keys of each filter', () => {
    expect(toPetItem(PET)).toMatchObject({ ...petItemKey(PET.id), type: 'pet', ...PET });
    expect(Object.keys(toPetItem(PET))).toEqual(expect.arrayContaining(['gsi1pk', 'gsi1sk']));
  });

  it('refuses, by name, a field it cannot read back or that has a table attribute name', () => {
    expect(() => createPetCodec(z.extend(Pet, { born: z.date() }))).toThrow(
      'Pet field "born" is a date: give it a decoder in shared/store/pet-item.ts',
    );
    expect(() => createPetCodec(z.extend(Pet, { pk: z.string() }))).toThrow(
      'Pet field "pk" has the name of a table attribute',
    );
  });

  it("compares a stored pet with a NewPet on every NewPet field, categoryId's digits included", () => {
    const newPet = { name: PET.name, categoryId: PET.categoryId, status: PET.status };
    expect(isPetOf(PET, newPet)).toBe(true);
    expect(isPetOf(PET, { ...newPet, categoryId: PET.categoryId - 1n })).toBe(false);
    expect(isPetOf(PET, { ...newPet, status: 'available' })).toBe(false);
    expect(isPetOf(undefined, newPet)).toBe(false);
  });
});
