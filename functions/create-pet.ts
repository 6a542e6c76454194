// The createPet Lambda function: its composition root, run once per cold start.
import { fromLambdaEnvironment } from '#functions/lambda-environment.ts';
import { createCreatePetHandler } from '#functions/create-pet-handler.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { createIdempotencyRecords } from '#shared/store/idempotency-records.ts';

const { settings, table, observability, stageHeaders } = fromLambdaEnvironment('createPet');

export const handler = createCreatePetHandler({
  pets: createDynamoDbPetStore(table, { shards: settings.petShards }),
  idempotencyRecords: createIdempotencyRecords(table),
  observability,
  stageHeaders,
});
