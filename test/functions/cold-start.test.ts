// Each function module's Lambda handler reads its settings once, when Lambda loads the module
// (lambdaHandler, with AWS_LAMBDA_FUNCTION_NAME set as Lambda sets it), so a missing or bad setting
// fails the cold start, never a request. Importing a module anywhere else reads nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { composeAuthorizer } from '#functions/authorizer.ts';
import { composeCreatePet } from '#functions/create-pet.ts';
import { composeGetPet } from '#functions/get-pet.ts';
import { composeListPets } from '#functions/list-pets.ts';
import { createPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import {
  keyLimitsFromEnvironment,
  lambdaHandler,
  petShardsFromEnvironment,
} from '#functions/lambda-environment.ts';
import { PET_SHARDS, petPartition } from '#shared/store/table.ts';
import { catchStdout } from '#test/support/stdout.ts';
import { TEST_CURSOR_SECRET, testTable } from '#test/support/test-table.ts';

beforeAll(() => {
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'cold-start-test';
});

afterAll(() => {
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  delete process.env.PETSTORE_TABLE_NAME;
  delete process.env.PETSTORE_STAGE;
  delete process.env.PETSTORE_CURSOR_SECRET;
  delete process.env.PETSTORE_PET_SHARDS;
  delete process.env.PETSTORE_KEY_LIMITS;
});

const KEY_LIMITS = { rateLimit: 5, burstLimit: 10, requestsPerDay: 10_000 };

describe('a function module loaded by Lambda', () => {
  it('fails to load without its table name', () => {
    delete process.env.PETSTORE_TABLE_NAME;
    expect(() => lambdaHandler('getPet', composeGetPet)).toThrow(
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

  it.each([
    '',
    '{',
    '[]',
    '{"rateLimit":5,"burstLimit":10}',
    '{"rateLimit":0,"burstLimit":1,"requestsPerDay":1}',
  ])('refuses the key limits %j in one line', (limits) => {
    process.env.PETSTORE_KEY_LIMITS = limits;
    expect(() => keyLimitsFromEnvironment()).toThrow(
      limits === ''
        ? 'Environment variable PETSTORE_KEY_LIMITS must be set.'
        : 'Environment variable PETSTORE_KEY_LIMITS must be JSON {rateLimit, burstLimit, requestsPerDay}, each above 0.',
    );
  });

  it('fails to load without its stage, which its metrics carry', () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    delete process.env.PETSTORE_STAGE;
    expect(() => lambdaHandler('authorizer', composeAuthorizer)).toThrow(
      'Environment variable PETSTORE_STAGE must be set.',
    );
  });

  it('fails to load with a cursor secret too short to keep cursors unforgeable', () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    process.env.PETSTORE_STAGE = 'staging';
    process.env.PETSTORE_PET_SHARDS = String(PET_SHARDS);
    process.env.PETSTORE_CURSOR_SECRET = 'short';
    expect(() => lambdaHandler('listPets', composeListPets)).toThrow(
      'Environment variable PETSTORE_CURSOR_SECRET must be set (32+ chars).',
    );
  });

  it('composes at its first call instead when imported outside Lambda', () => {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    delete process.env.PETSTORE_TABLE_NAME;
    const getPet = lambdaHandler('getPet', composeGetPet);
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'cold-start-test';
    expect(() => getPet({} as never, {} as never)).toThrow(
      'Environment variable PETSTORE_TABLE_NAME must be set.',
    );
  });

  it("serves requests on the table its environment names, with its stage's metrics on stdout", async () => {
    process.env.PETSTORE_TABLE_NAME = testTable.tableName;
    process.env.PETSTORE_STAGE = 'staging';
    process.env.PETSTORE_CURSOR_SECRET = TEST_CURSOR_SECRET;
    process.env.PETSTORE_PET_SHARDS = String(PET_SHARDS);
    process.env.PETSTORE_KEY_LIMITS = JSON.stringify(KEY_LIMITS);
    const { result: created, lines } = await catchStdout(async () => {
      const createPet = lambdaHandler('createPet', composeCreatePet);
      return invoke(createPet, createPetRequest({ name: 'Composed', categoryId: 1 }));
    });
    expect(created.status).toBe(201);
    // The usage plan's limits, as draft-ietf-httpapi-ratelimit-headers-11 spells them.
    expect(created.headers['RateLimit-Policy']).toBe(
      '"rate";q=5;w=1;petstore-burst=10, "daily";q=10000;w=86400',
    );
    expect(lines).toEqual([
      expect.objectContaining({ _aws: expect.any(Object), stage: 'staging', ColdStart: 1 }),
      expect.objectContaining({ _aws: expect.any(Object), stage: 'staging', PetsCreated: 1 }),
    ]);
    expect((await testTable.query({ partition: petPartition(0) })).map((item) => item.name)).toEqual([
      'Composed',
    ]);
  });
});
