// This test file's own table on the test DynamoDB (started by global-setup.ts), and the four
// functions on it, composed with explicit configuration as the local server composes them.
import { randomUUID } from 'node:crypto';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { createObservability } from '#shared/observability.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';

export const TEST_CURSOR_SECRET = 'test-cursor-secret-of-at-least-32-characters';
/** Tests provoke failures on purpose: their log entries would only be noise. */
export const quietObservability = () => createObservability({ logLevel: 'OFF', metrics: false });

export const testTable = (
  await openLocalDynamoDb({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
    tableName: `petstore-test-${randomUUID()}`,
  })
).table;
export const testFunctions = createSourceFunctions({
  table: testTable,
  cursorSecret: TEST_CURSOR_SECRET,
  observability: quietObservability(),
});
export const testApiKeys = createApiKeyStore(testTable);
