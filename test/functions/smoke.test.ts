import { beforeAll, expect, it } from '@jest/globals';
import { handler as createPet } from '#functions/create-pet.ts';
import { handler as getPet } from '#functions/get-pet.ts';
import { handler as listPets } from '#functions/list-pets.ts';
import { createPetRequest, getPetRequest, invoke, listPetsRequest } from '#test/support/invoke.ts';
import { createTestTable } from '#test/support/table.ts';

beforeAll(createTestTable);

it('smoke', async () => {
  const created = await invoke(
    createPet,
    createPetRequest('{"name":"Rex","categoryId":9223372036854775807}'),
  );
  console.log(created);
  const got = await invoke(getPet, getPetRequest('1'));
  console.log(got);
  console.log(await invoke(listPets, listPetsRequest('limit=5')));
  expect(created.status).toBe(201);
});
