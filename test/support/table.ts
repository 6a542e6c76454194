import { ensureTableNamed } from '#local/table-setup.ts';
import { requireEnv } from '#shared/env.ts';

/** Creates this test file's table (named by test-env.ts) on the test endpoint. */
export async function createTestTable(): Promise<void> {
  await ensureTableNamed(requireEnv('PETSTORE_TABLE_NAME'));
}
