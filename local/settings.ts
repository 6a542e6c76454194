// The local servers' settings, read once from the environment (listed in docs/local.md), and one line
// for each thing that stops a start: a bad setting, a busy port, a DynamoDB that cannot be used.
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { AUTHORIZER } from '#shared/http/routes.ts';
import { LocalSetupError } from '#local/dynamodb/embedded.ts';
import { DEFAULT_TABLE_NAME, localDynamoDbOptions } from '#local/dynamodb/connect.ts';
import { MAX_SEED_PETS } from '#local/dynamodb/seed-pets.ts';

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

/** A setting read elsewhere, whose problem is one line. */
function settingOrFail<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    return fail((error as Error).message);
  }
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
    ...settingOrFail(() => localDynamoDbOptions(env)),
    apiKey,
    cursorSecret,
    seed,
    /** Where the server records itself for `npm run keys`, instead of the checkout's `.petstore/servers/`. */
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
