// `npm run keys -- list`: a line for each key of the table, without the key itself: its id, when it
// was created, its scope, whether it works and until when, and its name.
import { createApiKeyStore, hasExpired } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord } from '#shared/store/api-key-store.ts';
import { keysCommand } from '#scripts/keys/command.ts';
import { at } from '#scripts/keys/target.ts';

/** active, active until T, expired T or revoked T. */
function state(key: ApiKeyRecord) {
  if (key.revokedAt) return `revoked ${key.revokedAt}`;
  if (!key.expiresAt) return 'active';
  return hasExpired(key) ? `expired ${key.expiresAt}` : `active until ${key.expiresAt}`;
}

export const list = keysCommand({
  usage: 'list',
  help: '  list                 id, created, scope, active (until when) or expired or revoked, name',
  options: {},
  takesKeyId: false,
  read: () => undefined,
  async run({ where, table }) {
    for (const key of await at(where, createApiKeyStore(table).list())) {
      console.log([key.id, key.createdAt, key.scope, state(key), key.name].join('  '));
    }
  },
});
