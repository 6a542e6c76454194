// Jest's global teardown: stops the embedded DynamoDB of global-setup.ts and removes the run's directory.
import { rmSync } from 'node:fs';
import type { EmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';

export default async function globalTeardown() {
  const run = globalThis as { embeddedDynamoDb?: EmbeddedDynamoDb; testRunDir?: string };
  await run.embeddedDynamoDb?.close();
  // The run's temporary directory and server records (global-setup.ts).
  if (run.testRunDir) rmSync(run.testRunDir, { recursive: true, force: true });
}
