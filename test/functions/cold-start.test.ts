// Each function module is the composition root of its Lambda function: it reads its settings once,
// when Lambda loads it, so a missing or bad setting fails the cold start, never a request.
import { afterAll, describe, expect, it } from '@jest/globals';
import { createPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { PET_PARTITION } from '#shared/store/table.ts';
import { catchStdout } from '#test/support/stdout.ts';
import { TEST_CURSOR_SECRET, testTable } from '#test/support/test-table.ts';

afterAll(() => {
  delete process.env.PETSTORE_TABLE_NAME;
  delete process.env.PETSTORE_CURSOR_SECRET;
});

describe('a function module loaded by Lambda', () => {
  it('fails to load without its table name', async () => {
    delete process.env.PETSTORE_TABLE_NAME;
    await expect(import('#functions/get-pet.ts')).rejects.toThrow(
      'Environment variable PETSTORE_TABLE_NAME must be set.',
    );
  });

  it('fails to load with a cursor secret too short to keep cursors unforgeable', async () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    process.env.PETSTORE_CURSOR_SECRET = 'short';
    await expect(import('#functions/list-pets.ts')).rejects.toThrow(
      'Environment variable PETSTORE_CURSOR_SECRET must be set (32+ chars).',
    );
  });

  it('serves requests on the table its environment names, with its metrics on stdout', async () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    process.env.PETSTORE_CURSOR_SECRET = TEST_CURSOR_SECRET;
    const { result: created, lines } = await catchStdout(async () => {
      const { handler: createPet } = await import('#functions/create-pet.ts');
      return invoke(createPet, createPetRequest({ name: 'Composed', categoryId: 1 }));
    });
    expect(created.status).toBe(201);
    expect(lines).toEqual([
      expect.objectContaining({ _aws: expect.any(Object), ColdStart: 1 }),
      expect.objectContaining({ _aws: expect.any(Object), PetsCreated: 1 }),
    ]);
    expect((await testTable.query({ partition: PET_PARTITION })).map((item) => item.name)).toEqual([
      'Composed',
    ]);
  });
});
