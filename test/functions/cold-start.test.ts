// Each function module is the composition root of its Lambda function: it reads its settings once,
// when Lambda loads it, so a missing or bad setting fails the cold start, never a request.
import { afterAll, describe, expect, it } from '@jest/globals';
import { createPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { petShardsFromEnvironment } from '#functions/lambda-environment.ts';
import { PET_SHARDS, petPartition } from '#shared/store/table.ts';
import { catchStdout } from '#test/support/stdout.ts';
import { TEST_CURSOR_SECRET, testTable } from '#test/support/test-table.ts';

afterAll(() => {
  delete process.env.PETSTORE_TABLE_NAME;
  delete process.env.PETSTORE_STAGE;
  delete process.env.PETSTORE_CURSOR_SECRET;
  delete process.env.PETSTORE_PET_SHARDS;
});

describe('a function module loaded by Lambda', () => {
  it('fails to load without its table name', async () => {
    delete process.env.PETSTORE_TABLE_NAME;
    await expect(import('#functions/get-pet.ts')).rejects.toThrow(
      'Environment variable PETSTORE_TABLE_NAME must be set.',
    );
  });

  it.each(['', '0', '65', '1.5', 'sixteen'])('refuses the shard count %j in one line', (shards) => {
    process.env.PETSTORE_PET_SHARDS = shards;
    expect(() => petShardsFromEnvironment()).toThrow(
      shards === ''
        ? 'Environment variable PETSTORE_PET_SHARDS must be set.'
        : 'Environment variable PETSTORE_PET_SHARDS must be a whole number from 1 to 64.',
    );
  });

  it('fails to load without its stage, which its metrics carry', async () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    delete process.env.PETSTORE_STAGE;
    await expect(import('#functions/authorizer.ts')).rejects.toThrow(
      'Environment variable PETSTORE_STAGE must be set.',
    );
  });

  it('fails to load with a cursor secret too short to keep cursors unforgeable', async () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    process.env.PETSTORE_STAGE = 'staging';
    process.env.PETSTORE_PET_SHARDS = String(PET_SHARDS);
    process.env.PETSTORE_CURSOR_SECRET = 'short';
    await expect(import('#functions/list-pets.ts')).rejects.toThrow(
      'Environment variable PETSTORE_CURSOR_SECRET must be set (32+ chars).',
    );
  });

  it("serves requests on the table its environment names, with its stage's metrics on stdout", async () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    process.env.PETSTORE_STAGE = 'staging';
    process.env.PETSTORE_CURSOR_SECRET = TEST_CURSOR_SECRET;
    process.env.PETSTORE_PET_SHARDS = String(PET_SHARDS);
    const { result: created, lines } = await catchStdout(async () => {
      const { handler: createPet } = await import('#functions/create-pet.ts');
      return invoke(createPet, createPetRequest({ name: 'Composed', categoryId: 1 }));
    });
    expect(created.status).toBe(201);
    expect(lines).toEqual([
      expect.objectContaining({ _aws: expect.any(Object), stage: 'staging', ColdStart: 1 }),
      expect.objectContaining({ _aws: expect.any(Object), stage: 'staging', PetsCreated: 1 }),
    ]);
    expect((await testTable.query({ partition: petPartition(0) })).map((item) => item.name)).toEqual([
      'Composed',
    ]);
  });
});
