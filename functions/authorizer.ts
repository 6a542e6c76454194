// The authorizer Lambda function: its composition root, run once per cold start.
import { createAuthorizerHandler } from '#functions/authorizer-handler.ts';
import { coldStart } from '#functions/cold-start.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';

const { table, observability } = coldStart();

export const handler = createAuthorizerHandler({ apiKeys: createApiKeyStore(table), observability });
