// The CloudWatch Synthetics canary's handler: the probe's steps (steps.ts) against the stage's API, one
// log line each, and a failed run whose error is the failed steps' lines. Its settings are read once, on
// load, as every composition root's are; the key from Secrets Manager at each run, so that a key stored
// by `npm run keys -- probe` is used from the next run on.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { requireEnv } from '#shared/env.ts';
import { decodeProbeKeySecret } from '#functions/probe/key-secret.ts';
import { failedSteps, runProbe, stepLine } from '#functions/probe/steps.ts';
import { PROBE_VARIABLES } from '#functions/probe/variables.ts';

const STORE_A_KEY = 'run npm run keys -- probe --stage <stage> to store one';

const baseUrl = requireEnv(PROBE_VARIABLES.baseUrl);
const keySecretArn = requireEnv(PROBE_VARIABLES.keySecretArn);
const creates = requireEnv(PROBE_VARIABLES.creates);
if (creates !== 'true' && creates !== 'false')
  throw new Error(`Environment variable ${PROBE_VARIABLES.creates} must be true or false, not "${creates}".`);
// One client for the instance's runs; its credentials come from the environment, as Lambda gives them.
const secrets = new SecretsManagerClient({});

async function readApiKey(): Promise<string> {
  let secretString: string | undefined;
  try {
    ({ SecretString: secretString } = await secrets.send(
      new GetSecretValueCommand({ SecretId: keySecretArn }),
    ));
  } catch (error) {
    const reason = `cannot read ${keySecretArn} (${(error as Error).name})`;
    throw new Error(`the probe's key: ${reason}: ${STORE_A_KEY}`, { cause: error });
  }
  const apiKey = decodeProbeKeySecret(secretString)?.apiKey;
  if (apiKey === undefined)
    throw new Error(`the probe's key: ${keySecretArn} holds no {"keyId","apiKey"} JSON: ${STORE_A_KEY}`);
  return apiKey;
}

export const handler = async (): Promise<void> => {
  const apiKey = await readApiKey();
  const results = await runProbe({ baseUrl, apiKey, creates: creates === 'true' });
  for (const result of results) console.log(stepLine(result));
  const failures = failedSteps(results);
  if (failures.length > 0) throw new Error(failures.map(stepLine).join('\n'));
};
