// Jest's global setup: one embedded DynamoDB (dynalite, in memory) for the whole run, unless
// AWS_ENDPOINT_URL_DYNAMODB already names one (DynamoDB Local, say), and a directory of the run's own.
// Jest's workers start after this and inherit the variables; each test file makes its own table. No
// synthesis here: the tests that read cdk.out synthesize it when stale (stage-assembly.ts).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';

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
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB) return;
  const dynamoDb = await startEmbeddedDynamoDb();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoDb.endpoint;
  (globalThis as { embeddedDynamoDb?: typeof dynamoDb }).embeddedDynamoDb = dynamoDb;
}
