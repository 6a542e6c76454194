// The authorizer Lambda function: its composition root, run once per cold start.
import { createAuthorizerHandler } from '#functions/authorizer-handler.ts';
import { fromLambdaEnvironment } from '#functions/lambda-environment.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';

const { table, observability } = fromLambdaEnvironment('authorizer');

export const handler = createAuthorizerHandler({ apiKeys: createApiKeyStore(table), observability });
