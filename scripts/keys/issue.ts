// Issuing a key as every `npm run keys` command that makes one does: stored in the table and, in a
// stage, added to the usage plan, or revoked again when that fails, so that no key that the plan does
// not limit is left working. And finding a key by its id, for the commands that change one.
import { createApiKeyStore, hashApiKey } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord, ApiKeyTerms, IssuedApiKey } from '#shared/store/api-key-store.ts';
import { addToUsagePlan } from '#scripts/keys/usage-plan.ts';
import { KeysError, at } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';

/** Stores a new key, and in a stage adds it to the usage plan (or revokes it again). */
export async function issue({ where, table, usagePlan }: KeysTarget, name: string, terms: ApiKeyTerms) {
  const keys = createApiKeyStore(table);
  const issued = await at(where, keys.issue(name, terms));
  if (usagePlan) {
    const added = addToUsagePlan(usagePlan.apiGateway, usagePlan.id, issued.id, hashApiKey(issued.key));
    await at(usagePlan.where, added).catch(async (error: Error) => {
      await at(where, keys.revoke(issued.id));
      throw new KeysError(`${error.message} (${issued.id} is revoked again)`);
    });
  }
  return issued;
}

/** name, scope, expires T or no expiry. */
export const describeTerms = ({ name, scope, expiresAt }: ApiKeyRecord) =>
  [name, scope, expiresAt ? `expires ${expiresAt}` : 'no expiry'].join(', ');

/** The one time a plain key is shown. */
export const printIssued = (issued: IssuedApiKey) =>
  console.log(`Issued ${issued.id} (${describeTerms(issued)}). The key, shown this once:\n${issued.key}`);

/** The key with this id; a KeysError when there is none. */
export async function keyWithId({ where, table }: KeysTarget, id: string): Promise<ApiKeyRecord> {
  const existing = (await at(where, createApiKeyStore(table).list())).find((key) => key.id === id);
  if (!existing) throw new KeysError(`No key with id ${id}.`);
  return existing;
}
