// What `npm start` and `npm run start:stage` share: their settings read once from the environment
// (listed in the README), one line for each thing that stops them, the HTTP server, the banner, and
// the shutdown on SIGINT/SIGTERM.
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { DEFAULT_TABLE_NAME, localDynamoDbOptions } from '#local/local-dynamodb.ts';
import type { LocalDynamoDb } from '#local/local-dynamodb.ts';
import type { ApiGateway } from '#local/api-gateway.ts';
import { startLocalServer } from '#local/server.ts';
import type { LocalServer } from '#local/server.ts';

export const fail = (message: string): never => {
  console.error(`petstore: ${message}`);
  process.exit(1);
};

export function readStartSettings(env: NodeJS.ProcessEnv) {
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

export type StartSettings = ReturnType<typeof readStartSettings>;

/** One line for what stopped the start, then exit 1. */
export function explainStartError(settings: StartSettings, error: NodeJS.ErrnoException): never {
  if (error.code === 'EADDRINUSE')
    return fail(`port ${settings.port} on ${settings.host} is already in use: set PORT to a free port.`);
  if (error.name === 'ResourceNotFoundException')
    return fail(`table ${settings.tableName ?? DEFAULT_TABLE_NAME} does not exist at ${settings.endpoint}.`);
  return fail(`could not start: ${error.message}`);
}

/** The HTTP server on the settings' host and port, one JSON access-log line per request. */
export const listen = (gateway: ApiGateway, settings: StartSettings) =>
  startLocalServer({
    gateway,
    port: settings.port,
    host: settings.host,
    accessLog: (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })),
  });

export function printBanner(
  title: string,
  settings: StartSettings,
  { server, dynamoDb, apiKey }: { server: LocalServer; dynamoDb: LocalDynamoDb; apiKey: string },
) {
  const where =
    settings.endpoint ?? `embedded, ${settings.dataDir ? `on disk in ${settings.dataDir}` : 'in memory'}`;
  console.log(`${title} listening on ${server.url}/v1
  DynamoDB: ${where} (table ${dynamoDb.tableName})
  API key:  ${settings.apiKey ? '(PETSTORE_API_KEY)' : `${apiKey}  (shown once)`}
  Try:      curl -H 'Authorization: Bearer ${apiKey}' ${server.url}/v1/pets`);
}

/** On SIGINT or SIGTERM: close what runs, in order, and exit 0. */
export function shutdownOnSignals(...closers: (() => Promise<void>)[]) {
  async function shutdown(signal: string) {
    console.log(`${signal}: shutting down`);
    for (const close of closers) await close();
    process.exit(0);
  }
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
