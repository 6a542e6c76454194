// `npm run keys -- probe --stage` as an operator runs it, for each stage. AWS cannot run here: dynalite
// stands in for the stage's DynamoDB (reached through the profile, as in keys.slow.test.ts) and a local
// server for Secrets Manager and API Gateway (reached with AWS_ENDPOINT_URL_SECRETS_MANAGER and
// AWS_ENDPOINT_URL_API_GATEWAY). Only AWS itself is stood in: the script and the SDK are the real ones.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKeyStore, hashApiKey } from '#shared/store/api-key-store.ts';
import type { ApiKeyStore } from '#shared/store/api-key-store.ts';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import type { EmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { killScripts } from '#test/support/process.ts';
import { keysIn, standInProfile } from '#test/scripts/keys/command.ts';
import { startAwsStandIn } from '#test/scripts/keys/aws-stand-in.ts';

const STAGES = {
  staging: {
    region: 'eu-west-3',
    secret: 'arn:aws:secretsmanager:eu-west-3:123456789012:secret:probe-s-AbC',
  },
  production: {
    region: 'eu-central-1',
    secret: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:probe-p-XyZ',
  },
};
type Stage = keyof typeof STAGES;
/** What the stack writes before the first `probe`: no key. */
const PLACEHOLDER = 'set by npm run keys -- probe';

const project = mkdtempSync(join(tmpdir(), 'petstore-keys-probe-'));
let dynamoDb: EmbeddedDynamoDb;
let aws: Awaited<ReturnType<typeof startAwsStandIn>>;
/** The profile of the stand-ins, written once the DynamoDB stand-in listens. */
let standInEnv: ReturnType<typeof standInProfile>;
const tables: LocalDynamoDb[] = [];
const keyStores = {} as Record<Stage, ApiKeyStore>;

/** The stage's outputs file, as `npm run deploy:<stage>` writes it; without the secret when told. */
function writeOutputs(stage: Stage, withSecret = true) {
  const { region, secret } = STAGES[stage];
  const outputs = {
    TableName5A1B2C: `petstore-${stage}`,
    UsagePlanId9F8E: `up-${stage}`,
    Region: region,
    ...(withSecret && { ProbeKeySecretArnD4E5: secret }),
  };
  writeFileSync(
    join(project, `cdk-outputs.${stage}.json`),
    JSON.stringify({ [`${stage}-Petstore`]: outputs }),
  );
}

beforeAll(async () => {
  [dynamoDb, aws] = await Promise.all([startEmbeddedDynamoDb(), startAwsStandIn()]);
  standInEnv = standInProfile(project, { dynamodb: dynamoDb.endpoint });
  for (const stage of Object.keys(STAGES) as Stage[]) {
    writeOutputs(stage);
    aws.secrets.set(STAGES[stage].secret, PLACEHOLDER);
    const table = await openLocalDynamoDb({ endpoint: dynamoDb.endpoint, tableName: `petstore-${stage}` });
    tables.push(table);
    keyStores[stage] = createApiKeyStore(table.table);
  }
});
afterEach(killScripts);
afterAll(async () => {
  await Promise.all(tables.map((table) => table.close()));
  await Promise.all([dynamoDb.close(), aws.close()]);
  rmSync(project, { recursive: true, force: true });
});

const probe = (stage: Stage, ...args: string[]) =>
  keysIn(
    {
      ...standInEnv,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.url,
      AWS_ENDPOINT_URL_API_GATEWAY: aws.url,
    },
    ['probe', '--stage', stage, ...args],
    { cwd: project },
  );

const held = (stage: Stage) =>
  JSON.parse(aws.secrets.get(STAGES[stage].secret) ?? '') as Record<string, string>;

/** The secret holds `{keyId, apiKey}`, and that key works: active in the table, with this scope. */
async function expectWorkingKeyIn(stage: Stage, scope: string) {
  const value = held(stage);
  expect(Object.keys(value).sort()).toEqual(['apiKey', 'keyId']);
  const record = await keyStores[stage].findActive(value.apiKey ?? '');
  expect(record).toMatchObject({ id: value.keyId, name: 'probe', scope });
  // It expires after 90 days, so that the probe's alarm asks for the next one.
  const expiresAt = record?.expiresAt ?? '';
  expect(Math.abs(Date.parse(expiresAt) - Date.now() - 90 * 86_400_000)).toBeLessThan(60_000);
  return { keyId: value.keyId ?? '', apiKey: value.apiKey ?? '', expiresAt };
}

const issuedLine = (
  stage: Stage,
  { keyId, expiresAt }: { keyId: string; expiresAt: string },
  scope: string,
  ending: string,
) =>
  `Issued ${keyId} (probe, ${scope}, expires ${expiresAt}) for the probe: stored in ${STAGES[stage].secret}; ${ending}.`;

const stdoutOf = (output: string) => output.split('\n').filter((line) => !line.startsWith('keys:'));

describe('keys probe', () => {
  it('stores a working full key in staging, never printed, and ends the one it replaces after 1h', async () => {
    const first = await probe('staging');
    expect(first.code).toBe(0);
    expect(first.firstLine).toBe(
      'keys: table petstore-staging in eu-west-3, usage plan up-staging (stage staging)',
    );
    const one = await expectWorkingKeyIn('staging', 'full');
    expect(stdoutOf(first.output)).toEqual([
      issuedLine('staging', one, 'full', 'no probe key was active before'),
      '',
    ]);
    // In the usage plan, by its hash; the secret reached in the stage's region.
    expect(aws.calls).toContainEqual(
      expect.objectContaining({
        operation: 'POST /apikeys',
        body: expect.objectContaining({ name: one.keyId, value: hashApiKey(one.apiKey) }),
      }),
    );
    // Described, then written: never read, which the secret's policy lets only the canary do.
    expect(
      aws.calls.filter((call) => /Secret/.test(call.operation)).map((call) => [call.operation, call.region]),
    ).toEqual([
      ['DescribeSecret', 'eu-west-3'],
      ['PutSecretValue', 'eu-west-3'],
    ]);

    const second = await probe('staging');
    const two = await expectWorkingKeyIn('staging', 'full');
    const [, endsAt = ''] = new RegExp(`; ${one.keyId} expires at (\\S+)\\.$`, 'm').exec(second.output) ?? [];
    expect(stdoutOf(second.output)).toEqual([
      issuedLine('staging', two, 'full', `${one.keyId} expires at ${endsAt}`),
      '',
    ]);
    expect(Math.abs(Date.parse(endsAt) - Date.now() - 3_600_000)).toBeLessThan(60_000);
    // Until then, a canary run that read the old value still passes.
    expect(await keyStores.staging.findActive(one.apiKey)).toMatchObject({
      id: one.keyId,
      expiresAt: endsAt,
    });

    const third = await probe('staging', '--overlap', '0s');
    expect(third.output).toMatch(new RegExp(`; ${two.keyId} expired at \\S+[;.]`, 'm'));
    expect(await keyStores.staging.findActive(two.apiKey)).toBeUndefined();
    for (const run of [first, second, third]) expect(run.output).not.toMatch(/psk_/);
  });

  it('stores a read-only key in production, in its own region', async () => {
    const run = await probe('production');
    expect(run.code).toBe(0);
    const key = await expectWorkingKeyIn('production', 'read-only');
    expect(stdoutOf(run.output)).toEqual([
      issuedLine('production', key, 'read-only', 'no probe key was active before'),
      '',
    ]);
    expect(aws.calls.at(-1)).toMatchObject({ operation: 'PutSecretValue', region: 'eu-central-1' });
    expect(run.output).not.toMatch(/psk_/);
  });

  it('ends every probe key active before, and no other key, not even one put in the secret by hand', async () => {
    const before = await expectWorkingKeyIn('staging', 'full');
    const leftOver = await keyStores.staging.issue('probe');
    const other = await keyStores.staging.issue('store client');
    aws.secrets.set(STAGES.staging.secret, JSON.stringify({ keyId: other.id, apiKey: other.key }));
    const run = await probe('staging', '--overlap', '0s');
    expect(run.code).toBe(0);
    const key = await expectWorkingKeyIn('staging', 'full');
    const [line = ''] = stdoutOf(run.output);
    expect(line).toMatch(new RegExp(`^Issued ${key.keyId} .*\\.$`));
    for (const { id } of [{ id: before.keyId }, leftOver])
      expect(line).toMatch(new RegExp(`; ${id} expired at \\S+[;.]`));
    expect(line).not.toContain(other.id);
    for (const ended of [before.apiKey, leftOver.key])
      expect(await keyStores.staging.findActive(ended)).toBeUndefined();
    expect(await keyStores.staging.findActive(other.key)).not.toHaveProperty('expiresAt');
  });

  it('revokes the new key again when the secret refuses it, in one line, and changes nothing else', async () => {
    const before = aws.secrets.get(STAGES.production.secret);
    const { keyId } = held('production');
    const heldBefore = (await keyStores.production.list()).find((key) => key.id === keyId);
    aws.refusing.add('PutSecretValue');
    try {
      const refused = await probe('production');
      expect(refused.code).toBe(1);
      const [, line = ''] = refused.output.trim().split('\n');
      expect(refused.output.trim().split('\n')).toHaveLength(2);
      const [, newId = ''] =
        /^keys: secret \S+: not authorized to PutSecretValue \S+ \((key_[0-9a-f]+) is revoked again: nothing else changed\)$/.exec(
          line,
        ) ?? [];
      const keys = await keyStores.production.list();
      expect(keys.find((key) => key.id === newId)?.revokedAt).toBeDefined();
      expect(keys.find((key) => key.id === keyId)).toEqual(heldBefore);
      expect(aws.secrets.get(STAGES.production.secret)).toBe(before);
      expect(refused.output).not.toMatch(/psk_/);
    } finally {
      aws.refusing.delete('PutSecretValue');
    }
  });

  it('checks the secret before it writes anything: a missing secret or output is one line', async () => {
    const listed = await keyStores.production.list();
    aws.secrets.delete(STAGES.production.secret);
    const missing = await probe('production');
    expect(missing.code).toBe(1);
    expect(missing.output.trim().split('\n').at(-1)).toBe(
      `keys: secret ${STAGES.production.secret}: no such secret there (Secrets Manager can't find the specified secret.)`,
    );
    writeOutputs('production', false);
    const older = await probe('production');
    expect(older.output.trim().split('\n').at(-1)).toBe(
      "keys: No ProbeKeySecretArn output in cdk-outputs.production.json: deploy again (npm run deploy:production) to write this version's outputs.",
    );
    expect(await keyStores.production.list()).toEqual(listed);
  });

  it('is refused without --stage: one line, then the usage', async () => {
    for (const args of [['probe'], ['probe', '--port', '3000']]) {
      const refused = await keysIn({}, args);
      expect(refused.code).toBe(1);
      expect(refused.output.trim().split('\n')).toEqual([
        "keys: probe issues a deployed stage's probe key: add --stage staging|production.",
        expect.stringMatching(/^usage: npm run keys -- .*\| probe \[--overlap DURATION\]>/),
      ]);
    }
    const named = await keysIn({}, ['probe', '--stage', 'staging', '--name', 'other']);
    expect(named.output).toMatch(/^usage: npm run keys/);
  });
});
