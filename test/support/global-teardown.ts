import type { EmbeddedDynamoDb } from '#local/embedded-dynamodb.ts';

export default async function globalTeardown() {
  await (globalThis as { embeddedDynamoDb?: EmbeddedDynamoDb }).embeddedDynamoDb?.close();
}
