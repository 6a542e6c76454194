// What `npm start`, `npm run dev` and `npm run start:stage` share: their settings read once from the
// environment (listed in the README), one line for each thing that stops them, the HTTP server, the
// banner with the record `npm run keys` finds the server by, and the drain on SIGINT/SIGTERM or
// when the process that started the server goes away.
import { resolve } from 'node:path';
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { AUTHORIZER } from '#shared/http/routes.ts';
import { LocalSetupError } from '#local/embedded-dynamodb.ts';
import type { LocalApiKey } from '#local/local-api-key.ts';
import { DEFAULT_TABLE_NAME, localDynamoDbOptions } from '#local/local-dynamodb.ts';
import type { LocalDynamoDb } from '#local/local-dynamodb.ts';
import type { ApiGateway } from '#local/api-gateway.ts';
import { startLocalServer } from '#local/server.ts';
import { MAX_SEED_PETS } from '#local/seed-pets.ts';
import { recordRunningServer } from '#local/server-records.ts';

export const fail = (message: string): never => {
  console.error(`petstore: ${message}`);
  process.exit(1);
};

const BEARER = new RegExp(AUTHORIZER.validationRegex);
/** What a client can send in a header (visible ASCII) and API Gateway's pattern takes whole. */
const isUsableApiKey = (key: string) =>
  /^[\x21-\x7e]+$/.test(key) && BEARER.exec(`Bearer ${key}`)?.[1] === key;

/** A setting that is a plain decimal number from 0 to `max`, or `fallback` when unset. */
function wholeNumber(value: string | undefined, fallback: number, max: number, mustBe: string) {
  if (!value) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) fail(`${mustBe} from 0 to ${max}, not "${value}".`);
  return Number(value);
}

export function readStartSettings(env: NodeJS.ProcessEnv) {
  const port = wholeNumber(env.PORT, 3000, 65_535, 'PORT must be a port number');
  const cursorSecret = env.PETSTORE_CURSOR_SECRET || undefined;
  if (cursorSecret !== undefined && cursorSecret.length < CURSOR_SECRET_MIN_LENGTH) {
    fail(`PETSTORE_CURSOR_SECRET must be at least ${CURSOR_SECRET_MIN_LENGTH} characters long.`);
  }
  const apiKey = env.PETSTORE_API_KEY || undefined;
  if (apiKey !== undefined && !isUsableApiKey(apiKey)) {
    fail(
      'PETSTORE_API_KEY must be visible ASCII characters without spaces: API Gateway refuses any other bearer token before the key is checked.',
    );
  }
  const seed = wholeNumber(env.PETSTORE_SEED, 0, MAX_SEED_PETS, 'PETSTORE_SEED must be a number of pets');
  return {
    port,
    host: env.HOST || '127.0.0.1',
    ...localDynamoDbOptions(env),
    apiKey,
    cursorSecret,
    seed,
    /** Where the server records itself for `npm run keys`; the tests' own, away from the checkout's. */
    serversDir: env.PETSTORE_SERVERS_DIR || undefined,
  };
}

export type StartSettings = ReturnType<typeof readStartSettings>;

/** One line for what stopped the start, then exit 1. */
export function explainStartError(settings: StartSettings, error: NodeJS.ErrnoException): never {
  if (error.code === 'EADDRINUSE')
    return fail(`port ${settings.port} on ${settings.host} is already in use: set PORT to a free port.`);
  if (error.code === 'EACCES')
    return fail(`port ${settings.port} on ${settings.host} needs privileges: set PORT to 1024 or above.`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return fail(
      `HOST ${settings.host} is not an address of this machine: use 127.0.0.1, or 0.0.0.0 for all.`,
    );
  if (error instanceof LocalSetupError) return fail(error.message);
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

/** The banner, and the record through which `npm run keys` finds this server's DynamoDB. */
export function announce(
  title: string,
  settings: StartSettings,
  {
    url,
    dynamoDb,
    apiKey,
    docs = false,
  }: {
    url: string;
    dynamoDb: Pick<LocalDynamoDb, 'endpoint' | 'region' | 'tableName'>;
    apiKey: LocalApiKey;
    /** Whether the server has its API reference at /docs. */
    docs?: boolean;
  },
) {
  recordRunningServer(settings.serversDir, {
    url,
    dynamoDbEndpoint: dynamoDb.endpoint,
    tableName: dynamoDb.tableName,
    region: dynamoDb.region,
    dataDir: settings.dataDir && resolve(settings.dataDir),
  });
  const where =
    settings.endpoint ?? `embedded, ${settings.dataDir ? `on disk in ${settings.dataDir}` : 'in memory'}`;
  const keyNote = {
    PETSTORE_API_KEY: '(PETSTORE_API_KEY)',
    kept: `${apiKey.key}  (kept in ${apiKey.keyFile})`,
    new: apiKey.keyFile ? `${apiKey.key}  (new, kept in ${apiKey.keyFile})` : `${apiKey.key}  (shown once)`,
  }[apiKey.origin];
  console.log(`${title} listening on ${url}/v1
  DynamoDB: ${where} (table ${dynamoDb.tableName})
  API key:  ${keyNote}
  Try:      curl -H 'Authorization: Bearer ${apiKey.key}' ${url}/v1/pets${docs ? `\n  Docs:     ${url}/docs` : ''}`);
}

/** How often a server checks that the process that started it is still there. */
const PARENT_CHECK_MS = 500;

/**
 * Whether the process that started this one has gone: reparented (POSIX), or no longer running
 * (Windows keeps the old parent id).
 */
function parentGone(parentPid: number) {
  if (process.ppid !== parentPid) return true;
  try {
    process.kill(parentPid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * On SIGINT or SIGTERM, or once the process that started this one has gone, close what runs, in
 * order, and exit 0. A process manager stops `npm start` by signalling npm, which passes the signal
 * to the shell that runs the script but not past it: without the watch, the server would outlive
 * npm and keep its port.
 */
export function shutdownOnSignals(...closers: (() => Promise<void>)[]) {
  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string) =>
    (stopping ??= (async () => {
      console.log(`${reason}: shutting down`);
      for (const close of closers) await close();
      process.exit(0);
    })());
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  const parentPid = process.ppid;
  // A process started by init (a container's entry point) has no parent to outlive.
  if (parentPid <= 1) return;
  const watch = setInterval(() => {
    if (!parentGone(parentPid)) return;
    clearInterval(watch);
    void shutdown(`the process that started this server (pid ${parentPid}) has exited`);
  }, PARENT_CHECK_MS);
  watch.unref();
}
