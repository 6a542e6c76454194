// `npm start`: the API on http://127.0.0.1:3000/v1 with an embedded DynamoDB, or the DynamoDB
// that AWS_ENDPOINT_URL_DYNAMODB names. Environment variables are listed in the README.
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DEFAULT_TABLE_NAME } from '#shared/store/table.ts';
import { tableCursorSecret } from '#local/cursor-secret.ts';
import { startEmbeddedDynamoDb, useLocalCredentials } from '#local/embedded-dynamodb.ts';
import { ensureTable } from '#local/table-setup.ts';

const fail = (message: string): never => {
  console.error(`petstore: ${message}`);
  process.exit(1);
};

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  fail(`PORT must be a port number, not "${process.env.PORT}".`);
const host = process.env.HOST || '127.0.0.1';
const dataDir = process.env.PETSTORE_DATA_DIR;

/** AWS's own endpoints hold tables the server does not own; any other DynamoDB is a local one. */
const isAws = (endpoint: string) =>
  /\.amazonaws\.com(\.cn)?(:\d+)?\/?$|\.api\.aws(:\d+)?\/?$/i.test(endpoint);

let embedded: Awaited<ReturnType<typeof startEmbeddedDynamoDb>> | undefined;
const externalEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
if (externalEndpoint === undefined) {
  embedded = await startEmbeddedDynamoDb({ dataDir });
  process.env.AWS_ENDPOINT_URL_DYNAMODB = embedded.endpoint;
}
const ownsDynamoDb = externalEndpoint === undefined || !isAws(externalEndpoint);
if (ownsDynamoDb) useLocalCredentials();
// CloudWatch metrics (embedded metric format) mean nothing locally.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_REGION ??= 'us-east-1';
const tableName = (process.env.PETSTORE_TABLE_NAME ||= DEFAULT_TABLE_NAME);

async function prepareTable(): Promise<void> {
  const client = new DynamoDBClient({});
  try {
    if (ownsDynamoDb) await ensureTable(client, tableName);
    // In a table it does not own, the server writes nothing of its own: a secret for this run only.
    process.env.PETSTORE_CURSOR_SECRET ||= ownsDynamoDb
      ? await tableCursorSecret(client, tableName)
      : randomBytes(32).toString('base64url');
  } finally {
    client.destroy();
  }
}

function explain(error: NodeJS.ErrnoException): never {
  if (error.code === 'EADDRINUSE')
    return fail(`port ${port} on ${host} is already in use: set PORT to a free port.`);
  if (error.name === 'ResourceNotFoundException')
    return fail(`table ${tableName} does not exist at ${externalEndpoint}.`);
  return fail(`could not start: ${error.message}`);
}

await prepareTable().catch(explain);
// The handlers read their environment when loaded, so they are loaded only now.
const { startLocalServer } = await import('#local/server.ts');
const server = await startLocalServer({
  port,
  host,
  apiKey: process.env.PETSTORE_API_KEY || undefined,
  createTable: false,
  accessLog: (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })),
}).catch(explain);

const keyShown = process.env.PETSTORE_API_KEY ? '(PETSTORE_API_KEY)' : `${server.apiKey}  (shown once)`;
console.log(`Pet store API listening on ${server.url}/v1
  DynamoDB: ${embedded ? `embedded, ${dataDir ? `on disk in ${dataDir}` : 'in memory'}` : externalEndpoint} (table ${tableName})
  API key:  ${keyShown}
  Try:      curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/v1/pets`);

async function shutdown(signal: string) {
  console.log(`${signal}: shutting down`);
  await server.close();
  await embedded?.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
