// Every function of functions/manifests.ts from its sources, composed as its Lambda composition root
// composes it, for a process that runs them all: each with its own pet store, as each Lambda function
// has (what one learns of the table's shards, the others do not). Configuration comes in; nothing
// reads the environment.
import { createAuthorizerHandler } from '#functions/authorizer-handler.ts';
import { createCreatePetHandler } from '#functions/create-pet-handler.ts';
import { createGetPetHandler } from '#functions/get-pet-handler.ts';
import { createListPetsHandler } from '#functions/list-pets-handler.ts';
import type { FunctionName } from '#functions/manifests.ts';
import type { HeaderMap } from '#shared/http/json-response.ts';
import { createCursors } from '#shared/http/pagination.ts';
import { createObservability } from '#shared/observability.ts';
import type { Observability } from '#shared/observability.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { createIdempotencyRecords } from '#shared/store/idempotency-records.ts';
import { PET_READ_CACHE_ENTRIES, withPetReadCache } from '#shared/store/pet-read-cache.ts';
import { PET_SHARDS } from '#shared/store/table.ts';

export type SourceFunctionsConfig = {
  table: TableClient;
  cursorSecret: string;
  /** The shards the table's pets are spread over: the stages' count unless told otherwise. */
  petShards?: number;
  /** getPet's cache of pets read, as in Lambda; 0 turns it off (the capacity model counts each read). */
  petReadCacheEntries?: number;
  /** Picks the id counter a grown table leases from; at random unless told. */
  pickCounter?: () => number;
  observability?: Observability;
  /** Headers of every answer, as a stage's functions send its RateLimit-Policy; none by default. */
  stageHeaders?: HeaderMap;
};

export function createSourceFunctions({
  table,
  cursorSecret,
  petShards = PET_SHARDS,
  petReadCacheEntries = PET_READ_CACHE_ENTRIES,
  pickCounter,
  // No CloudWatch reads this process's output: logs only.
  observability = createObservability({ metrics: false }),
  stageHeaders,
}: SourceFunctionsConfig) {
  const pets = () => createDynamoDbPetStore(table, { shards: petShards, pickCounter });
  const endpoint = { observability, stageHeaders };
  return {
    listPets: createListPetsHandler({ pets: pets(), cursors: createCursors(cursorSecret), ...endpoint }),
    createPet: createCreatePetHandler({
      pets: pets(),
      idempotencyRecords: createIdempotencyRecords(table),
      ...endpoint,
    }),
    getPet: createGetPetHandler({ pets: withPetReadCache(pets(), petReadCacheEntries), ...endpoint }),
    authorizer: createAuthorizerHandler({ apiKeys: createApiKeyStore(table), observability }),
  } satisfies Record<FunctionName, unknown>;
}

export type SourceFunctions = ReturnType<typeof createSourceFunctions>;
