// The secret the stage's probe reads its key from (output ProbeKeySecretArn), in Secrets Manager in the
// stage's region: JSON `{"keyId","apiKey"}`, so the key goes from here to the canary and nowhere else.
// Anything but that JSON (the stack's placeholder) holds no key. Every failure is one KeysError line.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import { KeysError, explainFailure } from '#scripts/keys/target.ts';
import { StageOutputsError, readStageOutputs } from '#scripts/stage-outputs.ts';

/** What the canary reads: the key, and its id for the next `probe` to end it. */
type ProbeSecretValue = { keyId: string; apiKey: string };

async function secretOutputs(stage: string) {
  try {
    return (await readStageOutputs(stage, ['ProbeKeySecretArn', 'Region'])).outputs;
  } catch (error) {
    throw error instanceof StageOutputsError ? new KeysError(error.message) : error;
  }
}

/** A step on the secret: its failure becomes one line that names the secret. */
async function onSecret<T>(where: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    const { name, message } = error as Error;
    // explainFailure would call it a missing table.
    const reason =
      name === 'ResourceNotFoundException'
        ? `no such secret there (${message.split('\n')[0]})`
        : explainFailure(error);
    throw new KeysError(`${where}: ${reason}`);
  }
}

/** The key id a secret value holds, if it is a probe key's JSON. */
function keyIdIn(secretString: string | undefined): string | undefined {
  try {
    const { keyId } = JSON.parse(secretString ?? '') as Partial<Record<keyof ProbeSecretValue, unknown>>;
    return typeof keyId === 'string' && keyId !== '' ? keyId : undefined;
  } catch {
    return undefined;
  }
}

/** The stage's probe secret, reached with the SDK's usual credentials (and endpoint settings). */
export async function openProbeSecret(stage: string) {
  const { ProbeKeySecretArn: arn, Region: region } = await secretOutputs(stage);
  const client = new SecretsManagerClient({ region });
  const where = `secret ${arn}`;
  return {
    arn,
    /** The id of the key the secret holds now, if any. */
    async heldKeyId() {
      const held = await onSecret(where, client.send(new GetSecretValueCommand({ SecretId: arn })));
      return keyIdIn(held.SecretString);
    },
    /** Makes `issued` the secret's current value: the canary's next read gets it. */
    async store({ id, key }: IssuedApiKey) {
      const value: ProbeSecretValue = { keyId: id, apiKey: key };
      await onSecret(
        where,
        client.send(new PutSecretValueCommand({ SecretId: arn, SecretString: JSON.stringify(value) })),
      );
    },
    close: () => client.destroy(),
  };
}
