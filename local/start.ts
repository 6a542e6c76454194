// `npm start`: the API on http://127.0.0.1:3000/v1 with an embedded DynamoDB, or the DynamoDB
// that AWS_ENDPOINT_URL_DYNAMODB names. The composition root of the local server: it reads its
// settings (listed in the README) once, and any bad one stops it with one line.
import { randomBytes } from 'node:crypto';
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { createObservability } from '#shared/observability.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { localApiKey } from '#local/local-api-key.ts';
import { DEFAULT_TABLE_NAME, localDynamoDbOptions, openLocalDynamoDb } from '#local/local-dynamodb.ts';
import { createLocalFunctions } from '#local/local-functions.ts';
import { startLocalServer } from '#local/server.ts';
import { tableCursorSecret } from '#local/table-cursor-secret.ts';

const fail = (message: string): never => {
  console.error(`petstore: ${message}`);
  process.exit(1);
};

function readSettings(env: NodeJS.ProcessEnv) {
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail(`PORT must be a port number, not "${env.PORT}".`);
  const cursorSecret = env.PETSTORE_CURSOR_SECRET || undefined;
  if (cursorSecret !== undefined && cursorSecret.length < CURSOR_SECRET_MIN_LENGTH) {
    fail(`PETSTORE_CURSOR_SECRET must be at least ${CURSOR_SECRET_MIN_LENGTH} characters long.`);
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    ...localDynamoDbOptions(env),
    apiKey: env.PETSTORE_API_KEY || undefined,
    cursorSecret,
  };
}

const settings = readSettings(process.env);
// CloudWatch metrics (embedded metric format) mean nothing locally; Powertools reads this setting.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

function explain(error: NodeJS.ErrnoException): never {
  if (error.code === 'EADDRINUSE')
    return fail(`port ${settings.port} on ${settings.host} is already in use: set PORT to a free port.`);
  if (error.name === 'ResourceNotFoundException')
    return fail(`table ${settings.tableName ?? DEFAULT_TABLE_NAME} does not exist at ${settings.endpoint}.`);
  return fail(`could not start: ${error.message}`);
}

const dynamoDb = await openLocalDynamoDb(settings).catch(explain);
const { table } = dynamoDb;

async function startServer() {
  // In a table it does not own, the server writes nothing of its own: a secret for this run only.
  const cursorSecret =
    settings.cursorSecret ??
    (dynamoDb.owned ? await tableCursorSecret(table) : randomBytes(32).toString('base64url'));
  const apiKey = await localApiKey(createApiKeyStore(table), dynamoDb, settings.apiKey);
  const functions = createLocalFunctions({ table, cursorSecret, observability: createObservability() });
  const server = await startLocalServer({
    functions,
    port: settings.port,
    host: settings.host,
    accessLog: (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })),
  });
  return { server, apiKey };
}

const { server, apiKey } = await startServer().catch(async (error: NodeJS.ErrnoException) => {
  await dynamoDb.close();
  return explain(error);
});

const where =
  settings.endpoint ?? `embedded, ${settings.dataDir ? `on disk in ${settings.dataDir}` : 'in memory'}`;
console.log(`Pet store API listening on ${server.url}/v1
  DynamoDB: ${where} (table ${dynamoDb.tableName})
  API key:  ${settings.apiKey ? '(PETSTORE_API_KEY)' : `${apiKey}  (shown once)`}
  Try:      curl -H 'Authorization: Bearer ${apiKey}' ${server.url}/v1/pets`);

async function shutdown(signal: string) {
  console.log(`${signal}: shutting down`);
  await server.close();
  await dynamoDb.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
