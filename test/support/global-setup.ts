// Starts one embedded DynamoDB (dynalite, in memory) for the whole run, unless
// AWS_ENDPOINT_URL_DYNAMODB already names one (DynamoDB Local, say): then the tests run on that.
// Jest's workers start after this and inherit the variable. Each test file makes its own table.
// It also synthesizes cdk.out when it is missing or stale, once, before the tests that serve a
// stage from it (`npm run start:stage`) start side by side.
// The run gets a directory of its own that global-teardown.ts removes: it is the temporary
// directory of the tests and of every process they start (TMPDIR, and TEMP and TMP for Windows),
// so a run leaves no temporary directory behind, and it holds the records of the servers the
// tests start (PETSTORE_SERVERS_DIR), so `npm run keys` beside `npm test` sees only the user's.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { projectStageAssembly } from '#local/cloud-assembly/stage-assembly.ts';

function makeTestRunDir() {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-test-run-'));
  const servers = join(dir, 'servers');
  mkdirSync(servers);
  Object.assign(process.env, { TMPDIR: dir, TEMP: dir, TMP: dir, PETSTORE_SERVERS_DIR: servers });
  return dir;
}

export default async function globalSetup() {
  (globalThis as { testRunDir?: string }).testRunDir = makeTestRunDir();
  projectStageAssembly(fileURLToPath(new URL('../..', import.meta.url)), 'staging', () => undefined);
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB) return;
  const dynamoDb = await startEmbeddedDynamoDb();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoDb.endpoint;
  (globalThis as { embeddedDynamoDb?: typeof dynamoDb }).embeddedDynamoDb = dynamoDb;
}
