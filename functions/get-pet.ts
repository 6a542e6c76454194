// The getPet Lambda function: its composition root, run once per cold start.
import { fromLambdaEnvironment } from '#functions/lambda-environment.ts';
import { createGetPetHandler } from '#functions/get-pet-handler.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { withPetReadCache } from '#shared/store/pet-read-cache.ts';

const { table, observability, stageHeaders } = fromLambdaEnvironment('getPet');

export const handler = createGetPetHandler({
  pets: withPetReadCache(createDynamoDbPetStore(table)),
  observability,
  stageHeaders,
});
