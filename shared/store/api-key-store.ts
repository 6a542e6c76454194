// API keys live in the table only as SHA-256 hashes, with an id, a name, a scope, timestamps and an
// optional expiry. A key has 256 random bits, so a fast hash is enough: there is nothing to
// brute-force. A key stored before scopes existed has no scope attribute: it has full access. Its
// expiry is an attribute of its own, never the table's TTL attribute: an expired key stays listed.
import { createHash, randomBytes } from 'node:crypto';
import type { Item, TableClient } from '#shared/store/dynamodb.ts';
import { API_KEY_PARTITION, TABLE_KEY, apiKeyItemKey } from '#shared/store/table.ts';

/** `full`: every method; `read-only`: GET only (the authorizer's policy says which). */
export type ApiKeyScope = 'full' | 'read-only';

export type ApiKeyRecord = {
  id: string;
  name: string;
  scope: ApiKeyScope;
  createdAt: string;
  /** From this instant the key is refused, like an unknown one. */
  expiresAt?: string;
  revokedAt?: string;
};
export type IssuedApiKey = ApiKeyRecord & { key: string };
/** An active key and its hash (which is also its API Gateway usage plan key). */
export type ActiveApiKey = ApiKeyRecord & { hash: string };
/** What a new key may carry besides its name. */
export type ApiKeyTerms = { scope?: ApiKeyScope; expiresAt?: string | undefined };

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const hasExpired = (record: ApiKeyRecord, now = Date.now()) =>
  record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now;

/** Neither revoked nor expired. */
export const isActive = (record: ApiKeyRecord, now = Date.now()) =>
  !record.revokedAt && !hasExpired(record, now);

/** The item attribute of a key's expiry, an ISO timestamp. */
const KEY_EXPIRY_ATTRIBUTE = 'keyExpiresAt';

/** The item that stores a key: its hash as the sort key, and its record. */
export const apiKeyItem = (key: string, { expiresAt, ...record }: ApiKeyRecord): Item => ({
  ...apiKeyItemKey(hashApiKey(key)),
  type: 'apiKey',
  ...record,
  ...(expiresAt !== undefined && { [KEY_EXPIRY_ATTRIBUTE]: expiresAt }),
});

const toRecord = ({ id, name, scope, createdAt, revokedAt, ...item }: Item): ApiKeyRecord => ({
  id,
  name,
  scope: scope === 'read-only' ? 'read-only' : 'full',
  createdAt,
  ...(item[KEY_EXPIRY_ATTRIBUTE] && { expiresAt: item[KEY_EXPIRY_ATTRIBUTE] }),
  ...(revokedAt && { revokedAt }),
});

const earlier = (first: string | undefined, second: string) =>
  first !== undefined && Date.parse(first) <= Date.parse(second) ? first : second;

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;

export function createApiKeyStore(table: TableClient) {
  /** Stores a key's hash with a new record; undefined when that key is already stored. */
  async function store(
    name: string,
    key: string,
    { scope = 'full', expiresAt }: ApiKeyTerms = {},
  ): Promise<IssuedApiKey | undefined> {
    const record: ApiKeyRecord = {
      id: `key_${randomBytes(8).toString('hex')}`,
      name,
      scope,
      createdAt: new Date().toISOString(),
      ...(expiresAt !== undefined && { expiresAt }),
    };
    const stored = await table.putIfAbsent(apiKeyItem(key, record));
    return stored ? { ...record, key } : undefined;
  }

  const items = () => table.query({ partition: API_KEY_PARTITION });
  const itemWithId = async (id: string) => (await items()).find((candidate) => candidate.id === id);

  /** Issues a new random key: 256 bits, so it cannot collide with a stored one. */
  async function issue(name: string, terms?: ApiKeyTerms): Promise<IssuedApiKey> {
    const issued = await store(name, `psk_${randomBytes(32).toString('base64url')}`, terms);
    if (!issued) throw new Error('A fresh random key is already stored');
    return issued;
  }

  return {
    issue,

    /** Accepts a key chosen elsewhere, such as a fixed key for local runs. */
    register: store,

    /**
     * The active (neither revoked nor expired) key with this plain value, if any: one strongly
     * consistent GetItem, so that a key is refused from the moment its revocation is written.
     */
    async findActive(key: string): Promise<ActiveApiKey | undefined> {
      const hash = hashApiKey(key);
      const item = await table.get(apiKeyItemKey(hash));
      const record = item && toRecord(item);
      return record && isActive(record) ? { ...record, hash } : undefined;
    },

    list: async (): Promise<ApiKeyRecord[]> => (await items()).map(toRecord),

    /** Marks a key revoked; returns it, or undefined when no key has this id. */
    async revoke(id: string): Promise<ApiKeyRecord | undefined> {
      const item = await itemWithId(id);
      if (!item) return undefined;
      const revokedAt: string = item.revokedAt ?? new Date().toISOString();
      await table.update(apiKeyItemKey(item[TABLE_KEY.sortKey]), { set: { revokedAt } });
      return toRecord({ ...item, revokedAt });
    },

    /**
     * Makes a key expire at `at`, or keeps its own expiry if that is earlier: ending a key early
     * never extends it. Returns the key as it now is, or undefined when no key has this id.
     */
    async expire(id: string, at: string): Promise<ApiKeyRecord | undefined> {
      const item = await itemWithId(id);
      if (!item) return undefined;
      const expiresAt = earlier(item[KEY_EXPIRY_ATTRIBUTE], at);
      await table.update(apiKeyItemKey(item[TABLE_KEY.sortKey]), {
        set: { [KEY_EXPIRY_ATTRIBUTE]: expiresAt },
      });
      return toRecord({ ...item, [KEY_EXPIRY_ATTRIBUTE]: expiresAt });
    },
  };
}
