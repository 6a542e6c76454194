// The getPet Lambda function: its composition root, run once per cold start.
import { fromLambdaEnvironment } from '#functions/lambda-environment.ts';
import { createGetPetHandler } from '#functions/get-pet-handler.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';

const { table, observability } = fromLambdaEnvironment();

export const handler = createGetPetHandler({ pets: createDynamoDbPetStore(table), observability });
