// The banner a local server prints once it listens (where it serves, which DynamoDB, the key to
// try it with), and the record through which `npm run keys` finds that server's DynamoDB.
import { resolve } from 'node:path';
import type { LocalDynamoDb, LocalDynamoDbOptions } from '#local/dynamodb/connect.ts';
import type { LocalApiKey } from '#local/server/api-key.ts';
import { recordRunningServer } from '#local/server/running-servers.ts';

/** The start settings the banner and the record show; serversDir is PETSTORE_SERVERS_DIR. */
type BannerSettings = Pick<LocalDynamoDbOptions, 'endpoint' | 'dataDir'> & {
  serversDir?: string | undefined;
};

/** The banner, and the record through which `npm run keys` finds this server's DynamoDB. */
export function announce(
  title: string,
  settings: BannerSettings,
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
