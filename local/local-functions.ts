// The four functions, composed as their Lambda composition roots compose them, for a process that
// runs them all: the local server, the tests and the bench's DynamoDB usage; and the API that
// `npm start` serves in front of them. Configuration comes
// in explicitly; nothing here reads the environment.
import { createAuthorizerHandler } from '#functions/authorizer-handler.ts';
import { createCreatePetHandler } from '#functions/create-pet-handler.ts';
import { createGetPetHandler } from '#functions/get-pet-handler.ts';
import { createListPetsHandler } from '#functions/list-pets-handler.ts';
import { createCursors } from '#shared/http/pagination.ts';
import { createObservability } from '#shared/observability.ts';
import type { Observability } from '#shared/observability.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import type { TableGateway } from '#shared/store/dynamodb.ts';
import { createIdempotencyRecords } from '#shared/store/idempotency-records.ts';
import { apiDefinitionFromModules } from '#local/api-definition.ts';
import { createApiGateway } from '#local/api-gateway.ts';
import type { ApiGateway } from '#local/api-gateway.ts';
import { withApiReference } from '#local/api-reference.ts';
import { inProcessFunctions } from '#local/function-runner.ts';

export type LocalFunctionsConfig = {
  table: TableGateway;
  cursorSecret: string;
  observability?: Observability;
};

export function createLocalFunctions({
  table,
  cursorSecret,
  // No CloudWatch reads this process's output: logs only.
  observability = createObservability({ metrics: false }),
}: LocalFunctionsConfig) {
  const pets = createDynamoDbPetStore(table);
  return {
    listPets: createListPetsHandler({ pets, cursors: createCursors(cursorSecret), observability }),
    createPet: createCreatePetHandler({
      pets,
      idempotencyRecords: createIdempotencyRecords(table),
      observability,
    }),
    getPet: createGetPetHandler({ pets, observability }),
    authorizer: createAuthorizerHandler({ apiKeys: createApiKeyStore(table), observability }),
  };
}

export type LocalFunctions = ReturnType<typeof createLocalFunctions>;

/** The API as `npm start` serves it: the shared modules' definition in front of these handlers. */
export const sourceApiGateway = (functions: LocalFunctions): ApiGateway =>
  createApiGateway({ definition: apiDefinitionFromModules(), functions: inProcessFunctions(functions) });

/** What `npm start` and `npm run dev` serve: the API, and its reference at /docs pre-filled with the key. */
export const localApi = ({ apiKey, ...config }: LocalFunctionsConfig & { apiKey: string }): ApiGateway =>
  withApiReference(sourceApiGateway(createLocalFunctions(config)), { apiKey });
