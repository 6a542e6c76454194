// The secret the stage's probe reads its key from (output ProbeKeySecretArn), in Secrets Manager in the
// stage's region: JSON `{"keyId","apiKey"}`, so the key goes from here to the canary and nowhere else.
// This side only writes it: the secret's policy lets no one but the canary read it. Every failure is
// one KeysError line.
import {
  DescribeSecretCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import { KeysError, explainFailure } from '#scripts/keys/target.ts';
import { StageOutputsError, readStageOutputs } from '#scripts/stage-outputs.ts';

/** What the canary reads: the key, and its id, which says which key it runs with. */
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

/** The stage's probe secret, reached with the SDK's usual credentials (and endpoint settings). */
export async function openProbeSecret(stage: string) {
  const { ProbeKeySecretArn: arn, Region: region } = await secretOutputs(stage);
  const client = new SecretsManagerClient({ region });
  const where = `secret ${arn}`;
  return {
    arn,
    /** Fails, in one line, unless the secret is there and reachable: read before anything is written. */
    async check() {
      await onSecret(where, client.send(new DescribeSecretCommand({ SecretId: arn })));
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
