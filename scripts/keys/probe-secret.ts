// The secret the stage's probe reads its key from (output ProbeKeySecretArn), in Secrets Manager in the
// stage's region, written as functions/probe/key-secret.ts encodes it: the key goes from here to the
// canary and nowhere else. This side only writes it: the secret's policy lets no one but the canary
// read it. Every failure is one KeysError line.
import {
  DescribeSecretCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import { encodeProbeKeySecret } from '#functions/probe/key-secret.ts';
import { at, stageOutputs } from '#scripts/keys/target.ts';

/** The stage's probe secret, reached with the SDK's usual credentials (and endpoint settings). */
export async function openProbeSecret(stage: string) {
  const outputs = await stageOutputs(stage, ['ProbeKeySecretArn', 'Region']);
  const arn = outputs.ProbeKeySecretArn;
  const client = new SecretsManagerClient({ region: outputs.Region });
  const where = `secret ${arn}`;
  return {
    arn,
    /** Fails, in one line, unless the secret is there and reachable: read before anything is written. */
    async check() {
      await at(where, client.send(new DescribeSecretCommand({ SecretId: arn })), 'secret');
    },
    /** Makes `issued` the secret's current value: the canary's next read gets it. */
    async store({ id, key }: IssuedApiKey) {
      const SecretString = encodeProbeKeySecret({ keyId: id, apiKey: key });
      await at(where, client.send(new PutSecretValueCommand({ SecretId: arn, SecretString })), 'secret');
    },
    close: () => client.destroy(),
  };
}
