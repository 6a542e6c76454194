// `npm run keys -- probe --stage <stage>`: a new key named `probe` for the stage's synthetic probe, full
// if the probe creates pets there, else read-only; stored in its secret, never printed. The key the secret
// held ends after the overlap, only once its successor is stored and only if it is a probe key. If the
// secret refuses the new key, that key is revoked again in the table and nothing else has changed.
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { createApiKeyStore, hasExpired } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord, ApiKeyScope } from '#shared/store/api-key-store.ts';
import { describeTerms, issue } from '#scripts/keys/issue.ts';
import { openProbeSecret } from '#scripts/keys/probe-secret.ts';
import { KeysError, at } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';

/** Every probe key's name: a key the secret holds under another name was put there by hand. */
const PROBE_KEY_NAME = 'probe';

/** The key the secret held: its id, and its record unless the table has no key with that id. */
type HeldKey = { id: string; record: ApiKeyRecord | undefined };

/** full when the stage's probe creates pets, else read-only. */
function probeScope(stage: string): ApiKeyScope {
  const settings = Object.entries(STAGE_SETTINGS).find(([name]) => name === stage)?.[1];
  if (!settings) throw new KeysError(`lib/stage-settings.ts has no stage ${stage}.`);
  return settings.probe.creates ? 'full' : 'read-only';
}

async function heldKey({ where, table }: KeysTarget, id: string | undefined): Promise<HeldKey | undefined> {
  if (id === undefined) return undefined;
  const keys = await at(where, createApiKeyStore(table).list());
  return { id, record: keys.find((key) => key.id === id) };
}

/** After the secret refused the new key: revokes it again, and says both in one line. */
async function revokeAgain({ where, table }: KeysTarget, stage: string, id: string, failure: string) {
  const outcome = await at(where, createApiKeyStore(table).revoke(id)).then(
    () => `${id} is revoked again: nothing else changed`,
    (error: Error) =>
      `${id} could not be revoked again (${error.message}): npm run keys -- revoke ${id} --stage ${stage}`,
  );
  throw new KeysError(`${failure} (${outcome})`);
}

/** Why a key the secret held is left as it is, or undefined when it is an active probe key. */
function leftAsItIs(record: ApiKeyRecord) {
  const { id, name, revokedAt, expiresAt } = record;
  if (name !== PROBE_KEY_NAME) return `${id}, which it held, is not a probe key ("${name}"): left as it is`;
  if (revokedAt) return `${id} was revoked already, at ${revokedAt}`;
  if (hasExpired(record)) return `${id} expired already, at ${expiresAt}`;
  return undefined;
}

/** Ends the held key at `endsAt` (or its own earlier expiry), and says what became of it. */
async function endHeldKey(
  { where, table }: KeysTarget,
  stage: string,
  held: HeldKey | undefined,
  endsAt: string,
) {
  if (!held) return 'the secret held no key before';
  const { id, record } = held;
  if (!record) return `${id}, which it held, is not in the table`;
  const kept = leftAsItIs(record);
  if (kept !== undefined) return kept;
  const ended = await at(where, createApiKeyStore(table).expire(id, endsAt)).catch((error: Error) => {
    throw new KeysError(
      `${error.message} (${id} is still active: once the probe runs with the new key, ` +
        `npm run keys -- revoke ${id} --stage ${stage})`,
    );
  });
  const expiresAt = ended?.expiresAt ?? endsAt;
  return `${id} ${hasExpired({ ...record, expiresAt }) ? 'expired' : 'expires'} at ${expiresAt}`;
}

export async function probe(target: KeysTarget, stage: string, heldKeyEndsAt: string) {
  const scope = probeScope(stage);
  const secret = await openProbeSecret(stage);
  try {
    // Read before anything is written: a secret out of reach changes nothing.
    const held = await heldKey(target, await secret.heldKeyId());
    const issued = await issue(target, PROBE_KEY_NAME, { scope });
    await secret.store(issued).catch((error: Error) => revokeAgain(target, stage, issued.id, error.message));
    const stored = `Issued ${issued.id} (${describeTerms(issued)}) for the probe: stored in ${secret.arn}`;
    const ending = await endHeldKey(target, stage, held, heldKeyEndsAt).catch((error: Error) => {
      // The new key is stored and works: say so before the failure.
      console.log(`${stored}.`);
      throw error;
    });
    console.log(`${stored}; ${ending}.`);
  } finally {
    secret.close();
  }
}
