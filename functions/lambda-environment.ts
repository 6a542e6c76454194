// What each function's environment holds, said once: the stack writes it from the stage's values,
// the bench gives its processes the same, and each composition root reads its part at cold start
// through the readers below. A missing or bad setting fails there, before any request.
import { requireEnv } from '#shared/env.ts';
import type { OperationId } from '#shared/http/routes.ts';
import { createObservability } from '#shared/observability.ts';
import { createDocumentClient, createTableGateway } from '#shared/store/dynamodb.ts';
import { MAX_PET_SHARDS } from '#shared/store/table.ts';

/** A route's operationId, or the TOKEN authorizer. */
export type PetstoreFunctionName = OperationId | 'authorizer';

/** Each setting a function can be given, by the environment variable that carries it. */
export const LAMBDA_VARIABLES = {
  tableName: 'PETSTORE_TABLE_NAME',
  /** Signs and checks pagination cursors (a secret of the stage). */
  cursorSecret: 'PETSTORE_CURSOR_SECRET',
  /** The shards of the stage's table (lib/stage-settings.ts): walked by lists, leased by creates. */
  petShards: 'PETSTORE_PET_SHARDS',
} as const;
export type LambdaSetting = keyof typeof LAMBDA_VARIABLES;

/** The settings each function reads, and no others. */
export const FUNCTION_SETTINGS = {
  listPets: ['tableName', 'cursorSecret', 'petShards'],
  createPet: ['tableName', 'petShards'],
  getPet: ['tableName'],
  authorizer: ['tableName'],
} as const satisfies Record<PetstoreFunctionName, readonly LambdaSetting[]>;

/** A function's environment from the stage's values (CloudFormation tokens, in the stack). */
export function lambdaEnvironment(
  name: PetstoreFunctionName,
  values: Record<LambdaSetting, string>,
): Record<string, string> {
  return Object.fromEntries(
    FUNCTION_SETTINGS[name].map((setting) => [LAMBDA_VARIABLES[setting], values[setting]]),
  );
}

/** The table gateway on the function's table (one DynamoDB client per process), its logs and metrics. */
export function fromLambdaEnvironment() {
  return {
    table: createTableGateway({
      tableName: requireEnv(LAMBDA_VARIABLES.tableName),
      documentClient: createDocumentClient(),
    }),
    observability: createObservability(),
  };
}

export function petShardsFromEnvironment(): number {
  const shards = Number(requireEnv(LAMBDA_VARIABLES.petShards));
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_PET_SHARDS)
    throw new Error(
      `Environment variable ${LAMBDA_VARIABLES.petShards} must be a whole number from 1 to ${MAX_PET_SHARDS}.`,
    );
  return shards;
}
