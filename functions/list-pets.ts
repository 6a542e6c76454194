// The listPets Lambda function: its composition root, run once per cold start.
import { fromLambdaEnvironment } from '#functions/lambda-environment.ts';
import { createListPetsHandler } from '#functions/list-pets-handler.ts';
import { createCursors } from '#shared/http/pagination.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';

const { settings, table, observability, stageHeaders } = fromLambdaEnvironment('listPets');

export const handler = createListPetsHandler({
  pets: createDynamoDbPetStore(table, { shards: settings.petShards }),
  cursors: createCursors(settings.cursorSecret),
  observability,
  stageHeaders,
});
