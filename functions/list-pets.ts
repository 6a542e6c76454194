// The listPets Lambda function: its composition root, run once per cold start.
import {
  LAMBDA_VARIABLES,
  fromLambdaEnvironment,
  petShardsFromEnvironment,
} from '#functions/lambda-environment.ts';
import { createListPetsHandler } from '#functions/list-pets-handler.ts';
import { requireEnv } from '#shared/env.ts';
import { CURSOR_SECRET_MIN_LENGTH, createCursors } from '#shared/http/pagination.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';

const { table, observability } = fromLambdaEnvironment();

export const handler = createListPetsHandler({
  pets: createDynamoDbPetStore(table, { shards: petShardsFromEnvironment() }),
  cursors: createCursors(requireEnv(LAMBDA_VARIABLES.cursorSecret, { minLength: CURSOR_SECRET_MIN_LENGTH })),
  observability,
});
