// createPet's handler under parallel creates, over this file's table in the test DynamoDB: every
// create gets an id of its own, and every pet can be read back.
import { expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { createPetRequest, getPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { testFunctions } from '#test/support/test-table.ts';

const { createPet, getPet } = testFunctions;

it('gives 200 parallel creates 200 distinct ids, all readable', async () => {
  const responses = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      invoke(createPet, createPetRequest({ name: `Pup ${i}`, categoryId: 1 })),
    ),
  );
  expect(responses.map((response) => response.status)).toEqual(Array(200).fill(201));
  const ids = responses.map((response) => (response.json as Pet).id);
  expect(new Set(ids).size).toBe(200);
  const read = await Promise.all(ids.map((id) => invoke(getPet, getPetRequest(String(id)))));
  expect(read.map((response) => (response.json as Pet).id)).toEqual(ids);
});
