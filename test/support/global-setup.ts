// Starts one embedded DynamoDB (dynalite, in memory) for the whole run, unless
// AWS_ENDPOINT_URL_DYNAMODB already names one (DynamoDB Local, say): then the tests run on that.
// Jest's workers start after this and inherit the variable. Each test file makes its own table.
import { startEmbeddedDynamoDb } from '#local/embedded-dynamodb.ts';

export default async function globalSetup() {
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB) return;
  const dynamoDb = await startEmbeddedDynamoDb();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoDb.endpoint;
  (globalThis as { embeddedDynamoDb?: typeof dynamoDb }).embeddedDynamoDb = dynamoDb;
}
