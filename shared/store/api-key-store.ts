// API keys live in the table only as SHA-256 hashes, with an id, a name and timestamps. A key has
// 256 random bits, so a fast hash is enough: there is nothing to brute-force.
import { createHash, randomBytes } from 'node:crypto';
import type { Item, TableClient } from '#shared/store/dynamodb.ts';
import { API_KEY_PARTITION, TABLE_KEY, apiKeyItemKey } from '#shared/store/table.ts';

export type ApiKeyRecord = { id: string; name: string; createdAt: string; revokedAt?: string };
export type IssuedApiKey = ApiKeyRecord & { key: string };
/** An active key and its hash (which is also its API Gateway usage plan key). */
export type ActiveApiKey = ApiKeyRecord & { hash: string };

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The item that stores a key: its hash as the sort key, and its record. */
export const apiKeyItem = (key: string, record: ApiKeyRecord): Item => ({
  ...apiKeyItemKey(hashApiKey(key)),
  type: 'apiKey',
  ...record,
});

const toRecord = ({ id, name, createdAt, revokedAt }: Item): ApiKeyRecord => ({
  id,
  name,
  createdAt,
  ...(revokedAt && { revokedAt }),
});

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;

export function createApiKeyStore(table: TableClient) {
  /** Stores a key's hash with a new record; undefined when that key is already stored. */
  async function store(name: string, key: string): Promise<IssuedApiKey | undefined> {
    const record: ApiKeyRecord = {
      id: `key_${randomBytes(8).toString('hex')}`,
      name,
      createdAt: new Date().toISOString(),
    };
    const stored = await table.putIfAbsent(apiKeyItem(key, record));
    return stored ? { ...record, key } : undefined;
  }

  const items = () => table.query({ partition: API_KEY_PARTITION });

  return {
    /** Issues a new random key: 256 bits, so it cannot collide with a stored one. */
    async issue(name: string): Promise<IssuedApiKey> {
      const issued = await store(name, `psk_${randomBytes(32).toString('base64url')}`);
      if (!issued) throw new Error('A fresh random key is already stored');
      return issued;
    },

    /** Accepts a key chosen elsewhere, such as a fixed key for local runs. */
    register: store,

    /**
     * The active (not revoked) key with this plain value, if any: one strongly consistent GetItem, so
     * that a key is refused from the moment its revocation is written, not a replication later.
     */
    async findActive(key: string): Promise<ActiveApiKey | undefined> {
      const hash = hashApiKey(key);
      const item = await table.get(apiKeyItemKey(hash));
      return item && !item.revokedAt ? { ...toRecord(item), hash } : undefined;
    },

    list: async (): Promise<ApiKeyRecord[]> => (await items()).map(toRecord),

    /** Marks a key revoked; returns it, or undefined when no key has this id. */
    async revoke(id: string): Promise<ApiKeyRecord | undefined> {
      const item = (await items()).find((candidate) => candidate.id === id);
      if (!item) return undefined;
      const revokedAt: string = item.revokedAt ?? new Date().toISOString();
      await table.update(apiKeyItemKey(item[TABLE_KEY.sortKey]), { set: { revokedAt } });
      return toRecord({ ...item, revokedAt });
    },
  };
}
