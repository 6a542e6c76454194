// getPet's handler, invoked with API Gateway proxy events over this file's table in the test
// DynamoDB: the Animal or 404, always with the deprecation headers.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { createPetRequest, getPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { testFunctions } from '#test/support/test-table.ts';

const { createPet, getPet } = testFunctions;

const DEPRECATION = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
};

let pet: Pet;

beforeAll(async () => {
  pet = (await invoke(createPet, createPetRequest({ name: 'Rex', categoryId: 12, status: 'sold' })))
    .json as Pet;
});

describe('getPet', () => {
  it('answers 200 with the Animal and the deprecation headers', async () => {
    const response = await invoke(getPet, getPetRequest(String(pet.id)));
    expect(response.status).toBe(200);
    expect(response.json).toEqual(pet);
    expect(response.headers).toMatchObject({ ...DEPRECATION, 'Content-Type': 'application/json' });
  });

  it.each(['999999', '9007199254740991', '9007199254740992', '9223372036854775807'])(
    'answers 404 not_found with the deprecation headers for the unknown id %s',
    async (id) => {
      const response = await invoke(getPet, getPetRequest(id));
      expect(response.status).toBe(404);
      expect(response.json).toEqual({
        code: 'not_found',
        message: expect.stringContaining('petId'),
        status: 404,
      });
      expect(response.headers).toMatchObject(DEPRECATION);
    },
  );

  it.each([
    '0',
    '-1',
    '+1',
    '01',
    'abc',
    '1.0',
    '1e3',
    ' 1',
    '9223372036854775808',
    '99999999999999999999999',
  ])('answers 400 validation_error with the deprecation headers for the id %j', async (id) => {
    const response = await invoke(getPet, getPetRequest(id));
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      code: 'validation_error',
      message: expect.stringMatching(/^petId: /),
      status: 400,
    });
    expect(response.headers).toMatchObject(DEPRECATION);
  });
});
