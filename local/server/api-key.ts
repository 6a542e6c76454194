// The API key a local server offers. In a DynamoDB it owns: PETSTORE_API_KEY (stored hashed like
// any key, perhaps by an earlier run); else the key kept beside a data directory, while it is
// still active; else a new random key (kept there for the next start, so restarts do not pile up
// active keys). In a table on AWS it writes nothing, so the key must already be active there.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyStore } from '#shared/store/api-key-store.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';

export type LocalApiKey = {
  key: string;
  /** Where it comes from, as the banner says it. */
  origin: 'PETSTORE_API_KEY' | 'kept' | 'new';
  /** The file that keeps it, with a data directory. */
  keyFile?: string | undefined;
};

/** One file per table: a data directory may hold the tables of `npm start` and of each stage run. */
export const localApiKeyFile = (dataDir: string, tableName: string) => join(dataDir, `${tableName}.api-key`);

function readKeptKey(keyFile: string) {
  try {
    return readFileSync(keyFile, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function localApiKey(
  apiKeys: ApiKeyStore,
  { owned, tableName }: Pick<LocalDynamoDb, 'owned' | 'tableName'>,
  { given, keyFile }: { given: string | undefined; keyFile?: string | undefined },
): Promise<LocalApiKey> {
  if (!owned) {
    if (given === undefined) {
      throw new Error(
        `set PETSTORE_API_KEY to an active key of table ${tableName}: on AWS the server issues no key of its own (npm run keys -- create --stage <stage>).`,
      );
    }
    if (!(await apiKeys.findActive(given))) {
      throw new Error(`PETSTORE_API_KEY is not an active key of table ${tableName}.`);
    }
    return { key: given, origin: 'PETSTORE_API_KEY' };
  }
  if (given !== undefined) {
    const stored = await apiKeys.register('local (PETSTORE_API_KEY)', given);
    if (!stored && !(await apiKeys.findActive(given))) {
      throw new Error('PETSTORE_API_KEY was revoked in this table, or has expired: choose another key.');
    }
    return { key: given, origin: 'PETSTORE_API_KEY' };
  }
  const kept = keyFile && readKeptKey(keyFile);
  if (kept && (await apiKeys.findActive(kept))) return { key: kept, origin: 'kept', keyFile };
  const { key } = await apiKeys.issue('local');
  // Only its owner may read it, like ~/.aws/credentials.
  if (keyFile) writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  return { key, origin: 'new', keyFile };
}
