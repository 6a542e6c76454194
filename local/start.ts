// `npm start`: the API on http://127.0.0.1:3000/v1 with an embedded DynamoDB, or the DynamoDB
// that AWS_ENDPOINT_URL_DYNAMODB names. Environment variables are listed in the README.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TABLE_NAME } from '#shared/store/table.ts';
import { startEmbeddedDynamoDb } from '#local/embedded-dynamodb.ts';

const fail = (message: string): never => {
  console.error(`petstore: ${message}`);
  process.exit(1);
};

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  fail(`PORT must be a port number, not "${process.env.PORT}".`);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = process.env.PETSTORE_DATA_DIR;

/** A cursor secret that lives as long as the data: in the data directory, or for this run only. */
function cursorSecret(): string {
  if (!dataDir) return randomBytes(32).toString('base64url');
  const file = join(dataDir, 'cursor-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

const isLoopback = (endpoint: string) =>
  /^https?:\/\/(localhost|127\.[\d.]+|\[::1\])(:\d+)?\/?$/i.test(endpoint);

let embedded: Awaited<ReturnType<typeof startEmbeddedDynamoDb>> | undefined;
const externalEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
if (externalEndpoint === undefined) {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  embedded = await startEmbeddedDynamoDb(dataDir ? { path: join(dataDir, 'dynamodb') } : {});
  process.env.AWS_ENDPOINT_URL_DYNAMODB = embedded.endpoint;
}
const ownsDynamoDb = externalEndpoint === undefined || isLoopback(externalEndpoint);
if (ownsDynamoDb && !process.env.AWS_ACCESS_KEY_ID && !process.env.AWS_PROFILE) {
  // A local DynamoDB accepts any credentials, but the SDK insists on having some.
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
}
// CloudWatch metrics (embedded metric format) mean nothing locally.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_REGION ??= 'us-east-1';
process.env.PETSTORE_TABLE_NAME ??= DEFAULT_TABLE_NAME;
process.env.PETSTORE_CURSOR_SECRET ??= cursorSecret();

// The handlers read their environment when loaded, so they are loaded only now.
const { startLocalServer } = await import('#local/server.ts');

const server = await startLocalServer({
  port,
  host,
  apiKey: process.env.PETSTORE_API_KEY || undefined,
  createTable: ownsDynamoDb,
  accessLog: (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })),
}).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE')
    return fail(`port ${port} on ${host} is already in use: set PORT to a free port.`);
  if (error.name === 'ResourceNotFoundException') {
    return fail(`table ${process.env.PETSTORE_TABLE_NAME} does not exist at ${externalEndpoint}.`);
  }
  return fail(`could not start: ${error.message}`);
});

const keyShown = process.env.PETSTORE_API_KEY ? '(PETSTORE_API_KEY)' : `${server.apiKey}  (shown once)`;
console.log(`Pet store API listening on ${server.url}/v1
  DynamoDB: ${embedded ? `embedded, ${dataDir ? `on disk in ${dataDir}` : 'in memory'}` : externalEndpoint} (table ${process.env.PETSTORE_TABLE_NAME})
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
