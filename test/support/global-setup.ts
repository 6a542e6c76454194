// Jest's global setup: one embedded DynamoDB (dynalite, in memory) for the whole run, unless
// AWS_ENDPOINT_URL_DYNAMODB already names one (DynamoDB Local, say); an up-to-date cdk.out; and a
// directory of the run's own. Jest's workers start after this and inherit the variables; each test
// file makes its own table.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { projectStageAssembly } from '#local/cloud-assembly/stage-assembly.ts';

/**
 * The run's own directory, removed by global-teardown.ts. It is the temporary directory of the tests
 * and of every process they start (TMPDIR, and TEMP and TMP for Windows), so a run leaves none behind,
 * and it holds the records of the servers the tests start (PETSTORE_SERVERS_DIR), so that
 * `npm run keys` beside `npm test` sees only the user's.
 */
function makeTestRunDir() {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-test-run-'));
  const servers = join(dir, 'servers');
  mkdirSync(servers);
  Object.assign(process.env, { TMPDIR: dir, TEMP: dir, TMP: dir, PETSTORE_SERVERS_DIR: servers });
  return dir;
}

export default async function globalSetup() {
  (globalThis as { testRunDir?: string }).testRunDir = makeTestRunDir();
  // Synthesized when missing or stale, once, before the tests that serve a stage from it start side
  // by side.
  projectStageAssembly(fileURLToPath(new URL('../..', import.meta.url)), 'staging', () => undefined);
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB) return;
  const dynamoDb = await startEmbeddedDynamoDb();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoDb.endpoint;
  (globalThis as { embeddedDynamoDb?: typeof dynamoDb }).embeddedDynamoDb = dynamoDb;
}
