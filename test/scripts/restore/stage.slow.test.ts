// `npm run restore --stage`: a key the stage's table lost comes back only while the stage's usage plan
// still serves it (in the plan, enabled), so a key revoked after the backup stays refused. AWS cannot
// run here: the test DynamoDB stands in for the stage's (reached through a profile, as in keys.slow.test.ts)
// and a local server for API Gateway. Only AWS itself is stood in: the script and the SDK are real.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { createApiKeyStore, hashApiKey } from '#shared/store/api-key-store.ts';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import { killScripts } from '#test/support/process.ts';
import { standInProfile } from '#test/scripts/keys/command.ts';
import { startAwsStandIn } from '#test/scripts/keys/aws-stand-in.ts';
import {
  allItems,
  deleteItem,
  openTable,
  restore,
  snapshot,
  summaryLines,
} from '#test/scripts/restore/command.ts';

const REGION = 'eu-central-1';
const USAGE_PLAN = 'up-production';
const project = mkdtempSync(join(tmpdir(), 'petstore-restore-stage-'));
let aws: Awaited<ReturnType<typeof startAwsStandIn>>;
let target: LocalDynamoDb;
let backup: LocalDynamoDb;
const keys = {} as Record<'served' | 'revoked' | 'outOfPlan' | 'kept', IssuedApiKey>;

beforeAll(async () => {
  aws = await startAwsStandIn();
  target = await openTable('production');
  writeFileSync(
    join(project, 'cdk-outputs.production.json'),
    JSON.stringify({
      'production-Petstore': {
        TableName5A1B2C: target.tableName,
        UsagePlanId9F8E: USAGE_PLAN,
        Region: REGION,
      },
    }),
  );
  const apiKeys = createApiKeyStore(target.table);
  for (const name of ['served', 'revoked', 'outOfPlan', 'kept'] as const)
    keys[name] = await apiKeys.issue(name);
  // The plan as `npm run keys` left it: every key added, the revoked one disabled, one removed since.
  for (const name of ['served', 'revoked', 'kept'] as const) {
    const { id, key } = keys[name];
    aws.apiKeys.set(`apigw-${name}`, { name: id, value: hashApiKey(key), enabled: name !== 'revoked' });
  }
  aws.usagePlans.set(USAGE_PLAN, ['apigw-served', 'apigw-revoked', 'apigw-kept']);
  backup = await snapshot(target);
  // The table loses every key but one.
  const lost = (await allItems(target)).filter((item) => item.id !== keys.kept.id);
  await Promise.all(lost.map((item) => deleteItem(target, item)));
});
afterAll(async () => {
  killScripts();
  await Promise.all([target.close(), backup.close(), aws.close()]);
  rmSync(project, { recursive: true, force: true });
});

const restoreStage = (...args: string[]) =>
  restore(
    {
      ...standInProfile(project, { dynamodb: process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '' }),
      AWS_ENDPOINT_URL_API_GATEWAY: aws.url,
    },
    ['--stage', 'production', '--from', backup.tableName, ...args],
    { cwd: project },
  );

describe('npm run restore into a stage', () => {
  it('in a dry run, asks the usage plan and writes nothing', async () => {
    const run = await restoreStage('--dry-run');
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(
      `restore: from table ${backup.tableName} into table ${target.tableName} in ${REGION}, usage plan ${USAGE_PLAN} (stage production), dry run`,
    );
    expect(summaryLines(run.stdout)[3]).toBe(
      '  API keys             1 restored, 1 already there, 0 different, 2 not in the usage plan',
    );
    expect(await allItems(target)).toHaveLength(1);
  });

  it('brings back only the lost key the usage plan still serves, asking in the stage region', async () => {
    const run = await restoreStage();
    expect(run.code).toBe(0);
    expect(summaryLines(run.stdout)[3]).toBe(
      '  API keys             1 restored, 1 already there, 0 different, 2 not in the usage plan',
    );
    const apiKeys = createApiKeyStore(target.table);
    expect(await apiKeys.findActive(keys.served.key)).toMatchObject({ id: keys.served.id });
    expect(await apiKeys.findActive(keys.kept.key)).toMatchObject({ id: keys.kept.id });
    expect((await apiKeys.list()).map((key) => key.name).sort()).toEqual(['kept', 'served']);
    const planCalls = aws.calls.filter((call) => call.operation.startsWith('GET /usageplans/'));
    expect(planCalls.map(({ operation, region }) => [operation, region])).toContainEqual([
      `GET /usageplans/${USAGE_PLAN}/keys`,
      REGION,
    ]);
  });
});
