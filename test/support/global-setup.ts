// Starts one embedded DynamoDB (dynalite, in memory) for the whole run, unless
// AWS_ENDPOINT_URL_DYNAMODB already names one (DynamoDB Local, say): then the tests run on that.
// Jest's workers start after this and inherit the variable. Each test file makes its own table.
// It also synthesizes cdk.out when it is missing or stale, once, before the tests that serve a
// stage from it (`npm run start:stage`) start side by side.
import { fileURLToPath } from 'node:url';
import { startEmbeddedDynamoDb } from '#local/embedded-dynamodb.ts';
import { projectStageAssembly } from '#local/stage-assembly.ts';

export default async function globalSetup() {
  projectStageAssembly(fileURLToPath(new URL('../..', import.meta.url)), 'staging', () => undefined);
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB) return;
  const dynamoDb = await startEmbeddedDynamoDb();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoDb.endpoint;
  (globalThis as { embeddedDynamoDb?: typeof dynamoDb }).embeddedDynamoDb = dynamoDb;
}
