// What every function's composition root builds at cold start from the settings all functions
// share: the table gateway on PETSTORE_TABLE_NAME (one DynamoDB client per process) and the
// process's logs and metrics. A missing setting fails here, before any request.
import { requireEnv } from '#shared/env.ts';
import { createObservability } from '#shared/observability.ts';
import { createDocumentClient, createTableGateway } from '#shared/store/dynamodb.ts';

export function fromLambdaEnvironment() {
  return {
    table: createTableGateway({
      tableName: requireEnv('PETSTORE_TABLE_NAME'),
      documentClient: createDocumentClient(),
    }),
    observability: createObservability(),
  };
}
