// `npm run keys -- probe --stage <stage>`: a new key named `probe` for the stage's synthetic probe, full
// if the probe creates pets there, else read-only; stored in its secret, never printed. Every probe key
// active before ends after the overlap, once its successor is stored. If the secret refuses the new
// key, that key is revoked again in the table and nothing else has changed.
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { createApiKeyStore, hasExpired, isActive } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord, ApiKeyScope } from '#shared/store/api-key-store.ts';
import { describeTerms, issue } from '#scripts/keys/issue.ts';
import { readExpiry } from '#scripts/keys/terms.ts';
import { openProbeSecret } from '#scripts/keys/probe-secret.ts';
import { KeysError, at } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';

/** Every probe key's name: a key the secret holds under another name was put there by hand. */
const PROBE_KEY_NAME = 'probe';
/**
 * A probe key expires 90 days after it is issued, the rotation period AWS's security checks ask of
 * access keys. Then the probe fails and its alarm pages: on-call rotates it with this command.
 */
const PROBE_KEY_DAYS = 90;

/** full when the stage's probe creates pets, else read-only. */
function probeScope(stage: string): ApiKeyScope {
  const settings = Object.entries(STAGE_SETTINGS).find(([name]) => name === stage)?.[1];
  if (!settings) throw new KeysError(`lib/stage-settings.ts has no stage ${stage}.`);
  return settings.probe.creates ? 'full' : 'read-only';
}

/** The probe keys that work now: the one the secret holds, and any a failed run left behind. */
async function activeProbeKeys({ where, table }: KeysTarget): Promise<ApiKeyRecord[]> {
  const keys = await at(where, createApiKeyStore(table).list());
  return keys.filter((key) => key.name === PROBE_KEY_NAME && isActive(key));
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

/** Ends a probe key at `endsAt` (or its own earlier expiry), and says when. */
async function endProbeKey({ where, table }: KeysTarget, stage: string, key: ApiKeyRecord, endsAt: string) {
  const { id } = key;
  const ended = await at(where, createApiKeyStore(table).expire(id, endsAt)).catch((error: Error) => {
    throw new KeysError(
      `${error.message} (${id} is still active: once the probe runs with the new key, ` +
        `npm run keys -- revoke ${id} --stage ${stage})`,
    );
  });
  const expiresAt = ended?.expiresAt ?? endsAt;
  return `${id} ${hasExpired({ ...key, expiresAt }) ? 'expired' : 'expires'} at ${expiresAt}`;
}

export async function probe(target: KeysTarget, stage: string, heldKeyEndsAt: string) {
  const scope = probeScope(stage);
  const secret = await openProbeSecret(stage);
  try {
    // Checked before anything is written: a secret out of reach changes nothing.
    await secret.check();
    const active = await activeProbeKeys(target);
    const expiresAt = readExpiry(`${PROBE_KEY_DAYS}d`);
    const issued = await issue(target, PROBE_KEY_NAME, { scope, expiresAt });
    await secret.store(issued).catch((error: Error) => revokeAgain(target, stage, issued.id, error.message));
    const stored = `Issued ${issued.id} (${describeTerms(issued)}) for the probe: stored in ${secret.arn}`;
    const endings: string[] = [];
    for (const key of active)
      endings.push(
        await endProbeKey(target, stage, key, heldKeyEndsAt).catch((error: Error) => {
          // The new key is stored and works: say so before the failure.
          console.log(`${[stored, ...endings].join('; ')}.`);
          throw error;
        }),
      );
    console.log(
      `${[stored, ...(endings.length > 0 ? endings : ['no probe key was active before'])].join('; ')}.`,
    );
  } finally {
    secret.close();
  }
}
