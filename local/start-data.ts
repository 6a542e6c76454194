// What a local server of the sources prepares before it serves: the DynamoDB (embedded, or the one
// given), the cursor secret, the API key to offer, and PETSTORE_SEED's pets. Anything that goes wrong
// closes what was opened and is thrown for the caller's one line.
import { randomBytes } from 'node:crypto';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { LocalSetupError } from '#local/dynamodb/embedded.ts';
import { localApiKey, localApiKeyFile } from '#local/server/api-key.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { seedTable } from '#local/dynamodb/seed-pets.ts';
import { explainStartError, readStartSettings } from '#local/settings.ts';
import type { StartSettings } from '#local/settings.ts';
import { tableCursorSecret } from '#local/dynamodb/cursor-secret.ts';
import { checkTableLayout } from '#local/dynamodb/table-layout.ts';
import { PET_SHARDS } from '#shared/store/table.ts';

async function openData(settings: StartSettings, log: (line: string) => void) {
  const dynamoDb = await openLocalDynamoDb(settings);
  const { table, owned } = dynamoDb;
  try {
    if (settings.seed > 0 && !owned)
      throw new LocalSetupError('PETSTORE_SEED adds pets: not to a table on AWS.');
    // In a table it does not own, the server writes nothing of its own: a secret for this run only.
    const cursorSecret =
      settings.cursorSecret ??
      (owned ? await tableCursorSecret(table) : randomBytes(32).toString('base64url'));
    const apiKey = await localApiKey(createApiKeyStore(table), dynamoDb, {
      given: settings.apiKey,
      keyFile: settings.dataDir && localApiKeyFile(settings.dataDir, dynamoDb.tableName),
    });
    await checkTableLayout(dynamoDb, PET_SHARDS);
    await seedTable(table, settings.seed, log);
    return { dynamoDb, cursorSecret, apiKey };
  } catch (error) {
    await dynamoDb.close();
    throw error;
  }
}

/** The settings and the data, or one line and exit 1. */
export async function openStartData(env: NodeJS.ProcessEnv, log: (line: string) => void) {
  const settings = readStartSettings(env);
  const data = await openData(settings, log).catch((error: NodeJS.ErrnoException) =>
    explainStartError(settings, error),
  );
  return { settings, ...data };
}
