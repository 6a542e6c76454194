// API keys live in the table only as SHA-256 hashes, with an id, a name and timestamps. A key has
// 256 random bits, so a fast hash is enough: there is nothing to brute-force.
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, send, sendConditional, tableName } from '#shared/store/dynamodb.ts';
import { API_KEY_PARTITION, IF_ABSENT, apiKeyKey } from '#shared/store/table.ts';

export type ApiKeyRecord = { id: string; name: string; createdAt: string; revokedAt?: string };
export type IssuedApiKey = ApiKeyRecord & { key: string };

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Stores a key's hash with a new record; false when that key is already stored. */
async function storeApiKey(name: string, key: string): Promise<IssuedApiKey | undefined> {
  const record: ApiKeyRecord = {
    id: `key_${randomBytes(8).toString('hex')}`,
    name,
    createdAt: new Date().toISOString(),
  };
  const stored = await sendConditional(() =>
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...apiKeyKey(hashApiKey(key)), type: 'apiKey', ...record },
        ConditionExpression: IF_ABSENT,
      }),
    ),
  );
  return stored ? { ...record, key } : undefined;
}

/** Issues a new random key: 256 bits, so it cannot collide with a stored one. */
export async function issueApiKey(name: string): Promise<IssuedApiKey> {
  const issued = await storeApiKey(name, `psk_${randomBytes(32).toString('base64url')}`);
  if (!issued) throw new Error('A fresh random key is already stored');
  return issued;
}

/** Accepts a key chosen elsewhere (the local server's PETSTORE_API_KEY); undefined when already accepted. */
export const registerApiKey = storeApiKey;

const toRecord = ({ id, name, createdAt, revokedAt }: Record<string, unknown>) =>
  ({ id, name, createdAt, ...(revokedAt ? { revokedAt } : {}) }) as ApiKeyRecord;

/** An active key and its hash (which is also its API Gateway usage plan key). */
export type ActiveApiKey = ApiKeyRecord & { hash: string };

/** The active (not revoked) key with this plain value, if any: one GetItem. */
export async function findActiveApiKey(key: string): Promise<ActiveApiKey | undefined> {
  const hash = hashApiKey(key);
  const { Item } = await send(() =>
    documentClient.send(new GetCommand({ TableName: tableName, Key: apiKeyKey(hash) })),
  );
  return Item && !Item.revokedAt ? { ...toRecord(Item), hash } : undefined;
}

async function apiKeyItems() {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await send(() =>
      documentClient.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :keys',
          ExpressionAttributeValues: { ':keys': API_KEY_PARTITION },
          ExclusiveStartKey: startKey,
        }),
      ),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export async function listApiKeys(): Promise<ApiKeyRecord[]> {
  return (await apiKeyItems()).map(toRecord);
}

/** Marks a key revoked; returns it, or undefined when no key has this id. */
export async function revokeApiKey(id: string): Promise<ApiKeyRecord | undefined> {
  const item = (await apiKeyItems()).find((candidate) => candidate.id === id);
  if (!item) return undefined;
  const revokedAt = (item.revokedAt as string | undefined) ?? new Date().toISOString();
  await send(() =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET revokedAt = :revokedAt',
        ExpressionAttributeValues: { ':revokedAt': revokedAt },
      }),
    ),
  );
  return toRecord({ ...item, revokedAt });
}
