// The API key `npm start` offers. In a DynamoDB it owns: PETSTORE_API_KEY (stored hashed like any
// key, perhaps by an earlier run), or a new random key. In a table on AWS it writes nothing, so the
// key must already be an active key there.
import type { ApiKeyStore } from '#shared/store/api-key-store.ts';
import type { LocalDynamoDb } from '#local/local-dynamodb.ts';

export async function localApiKey(
  apiKeys: ApiKeyStore,
  { owned, tableName }: Pick<LocalDynamoDb, 'owned' | 'tableName'>,
  given: string | undefined,
): Promise<string> {
  if (!owned) {
    if (given === undefined) {
      throw new Error(
        `set PETSTORE_API_KEY to an active key of table ${tableName}: on AWS the server issues no key of its own (npm run keys -- create --stage <stage>).`,
      );
    }
    if (!(await apiKeys.findActive(given))) {
      throw new Error(`PETSTORE_API_KEY is not an active key of table ${tableName}.`);
    }
    return given;
  }
  if (given === undefined) return (await apiKeys.issue('local')).key;
  const stored = await apiKeys.register('local (PETSTORE_API_KEY)', given);
  if (!stored && !(await apiKeys.findActive(given))) {
    throw new Error('PETSTORE_API_KEY was revoked in this table: choose another key.');
  }
  return given;
}
