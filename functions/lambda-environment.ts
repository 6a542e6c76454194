// What every function's composition root builds at cold start from the settings all functions
// share: the table gateway on PETSTORE_TABLE_NAME (one DynamoDB client per process) and the
// process's logs and metrics; and the pets' shard count for those that need it. A missing or bad
// setting fails here, before any request.
import { requireEnv } from '#shared/env.ts';
import { createObservability } from '#shared/observability.ts';
import { createDocumentClient, createTableGateway } from '#shared/store/dynamodb.ts';
import { MAX_PET_SHARDS } from '#shared/store/table.ts';

export function fromLambdaEnvironment() {
  return {
    table: createTableGateway({
      tableName: requireEnv('PETSTORE_TABLE_NAME'),
      documentClient: createDocumentClient(),
    }),
    observability: createObservability(),
  };
}

/** PETSTORE_PET_SHARDS: the shards of the stage's table (lib/stage-settings.ts). */
export function petShardsFromEnvironment(): number {
  const shards = Number(requireEnv('PETSTORE_PET_SHARDS'));
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_PET_SHARDS)
    throw new Error(
      `Environment variable PETSTORE_PET_SHARDS must be a whole number from 1 to ${MAX_PET_SHARDS}.`,
    );
  return shards;
}
