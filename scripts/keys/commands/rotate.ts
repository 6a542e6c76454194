// `npm run keys -- rotate KEY_ID`: a new key with the old one's name, scope and expiry, printed this
// once, while the old one keeps working for the overlap. If the old key cannot be given its end, the
// new one is revoked again and nothing has changed.
import { createApiKeyStore, hasExpired } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord } from '#shared/store/api-key-store.ts';
import { keysCommand } from '#scripts/keys/command.ts';
import { issue, keyWithId, printIssued } from '#scripts/keys/issue.ts';
import { KeysError, at } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';
import { readOverlapEnd } from '#scripts/keys/terms.ts';

const DEFAULT_OVERLAP = '24h';

/** The key with this id, if it can still be rotated; otherwise why not, as a KeysError. */
async function rotatable(target: KeysTarget, id: string): Promise<ApiKeyRecord> {
  const existing = await keyWithId(target, id);
  const ended = existing.revokedAt
    ? `was revoked at ${existing.revokedAt}`
    : hasExpired(existing) && `expired at ${existing.expiresAt}`;
  if (ended) throw new KeysError(`${id} ${ended}: there is nothing to rotate; create a new key.`);
  return existing;
}

export const rotate = keysCommand({
  usage: 'rotate KEY_ID [--overlap DURATION]',
  help: `  rotate KEY_ID        issues a key with the same name, scope and expiry and prints it, this once;
    --overlap DURATION the old key keeps working this long (default ${DEFAULT_OVERLAP}; 0s ends it at once)`,
  options: { overlap: { type: 'string' } },
  takesKeyId: true,
  read: ({ keyId, values }) => ({
    id: keyId,
    oldKeyEndsAt: readOverlapEnd(values.overlap ?? DEFAULT_OVERLAP),
  }),
  async run(target, { id, oldKeyEndsAt }) {
    const old = await rotatable(target, id);
    const { scope, expiresAt } = old;
    const issued = await issue(target, old.name, { scope, expiresAt });
    const keys = createApiKeyStore(target.table);
    const ended = await at(target.where, keys.expire(id, oldKeyEndsAt)).catch(async (error: Error) => {
      await at(target.where, keys.revoke(issued.id));
      throw new KeysError(`${error.message} (${issued.id} is revoked again; ${id} is unchanged)`);
    });
    printIssued(issued);
    const endsAt = ended?.expiresAt ?? oldKeyEndsAt;
    console.log(
      hasExpired({ ...old, expiresAt: endsAt })
        ? `${id} expired at ${endsAt}: only the new key works.`
        : `${id} expires at ${endsAt}: until then both keys work.`,
    );
  },
});
