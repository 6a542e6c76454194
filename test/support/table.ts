import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '#local/table-setup.ts';
import { requireEnv } from '#shared/env.ts';

/** Creates this test file's table (named by test-env.ts) on the test endpoint. */
export async function createTestTable(): Promise<void> {
  const client = new DynamoDBClient({});
  await ensureTable(client, requireEnv('PETSTORE_TABLE_NAME'));
  client.destroy();
}
