// The getPet Lambda function: its composition root, run once per cold start.
import { coldStart } from '#functions/cold-start.ts';
import { createGetPetHandler } from '#functions/get-pet-handler.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';

const { table, observability } = coldStart();

export const handler = createGetPetHandler({ pets: createDynamoDbPetStore(table), observability });
