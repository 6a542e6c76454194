// `npm run keys -- probe --stage <stage>`: a new key named `probe` for the stage's synthetic probe, full
// if the probe creates pets there, else read-only; stored in its secret, never printed. Every probe key
// active before ends after the overlap, once its successor is stored. If the secret refuses the new
// key, that key is revoked again in the table and nothing else has changed.
import { createApiKeyStore, hasExpired, isActive } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord, ApiKeyScope } from '#shared/store/api-key-store.ts';
import { UsageError, keysCommand } from '#scripts/keys/command.ts';
import { describeTerms, issue } from '#scripts/keys/issue.ts';
import { KeysError, at } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';
import { readExpiry, readOverlapEnd } from '#scripts/keys/terms.ts';

/** Every probe key's name: a key the secret holds under another name was put there by hand. */
const PROBE_KEY_NAME = 'probe';
/**
 * A probe key expires 90 days after it is issued, the rotation period AWS's security checks ask of
 * access keys. Then the probe fails and its alarm pages: on-call rotates it with this command.
 */
const PROBE_KEY_DAYS = 90;
/**
 * The probe's old key keeps working this long after its successor is stored: a canary run (every 5
 * minutes, a minute at most) that read the secret just before still passes, and so do a few retried ones.
 */
const PROBE_OVERLAP = '1h';

/** full when the stage's probe creates pets, else read-only. */
async function probeScope(stage: string): Promise<ApiKeyScope> {
  // Loaded here, for probe alone: the stage settings bring in the CDK.
  const { STAGE_SETTINGS } = await import('#lib/stage-settings.ts');
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

export const probe = keysCommand({
  usage: 'probe [--overlap DURATION]',
  help: `  probe                with --stage: the probe's new key, into its secret, unshown; --overlap default ${PROBE_OVERLAP}`,
  options: { overlap: { type: 'string' } },
  takesKeyId: false,
  read({ stage, values }) {
    if (stage === undefined)
      throw new UsageError("probe issues a deployed stage's probe key: add --stage staging|production.");
    return { stage, heldKeyEndsAt: readOverlapEnd(values.overlap ?? PROBE_OVERLAP) };
  },
  async run(target, { stage, heldKeyEndsAt }) {
    const scope = await probeScope(stage);
    // Loaded here, for probe alone: the secret's module brings in Secrets Manager's client.
    const secret = await (await import('#scripts/keys/probe-secret.ts')).openProbeSecret(stage);
    try {
      // Checked before anything is written: a secret out of reach changes nothing.
      await secret.check();
      const active = await activeProbeKeys(target);
      const expiresAt = readExpiry(`${PROBE_KEY_DAYS}d`);
      const issued = await issue(target, PROBE_KEY_NAME, { scope, expiresAt });
      await secret
        .store(issued)
        .catch((error: Error) => revokeAgain(target, stage, issued.id, error.message));
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
  },
});
