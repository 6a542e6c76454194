// The `--stage` tools as an on-call engineer who never deployed from this machine runs them: no
// cdk-outputs.<stage>.json, so the stage's outputs come from its stack. AWS cannot run here: a local
// server stands in for CloudFormation (AWS_ENDPOINT_URL_CLOUDFORMATION) and dynalite for the stage's
// DynamoDB (through the profile, as in keys.slow.test.ts); the commands and SDK clients are real.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import type { EmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { stageRegions } from '#scripts/stage-region.ts';
import { killScripts, runScript } from '#test/support/process.ts';
import { keysIn, standInProfile } from '#test/scripts/keys/command.ts';
import { startCloudFormationStandIn } from '#test/scripts/cloudformation-stand-in.ts';

/** Each stage's region as cdk.json sets it: where its stack is asked for. */
const regions = stageRegions();
/** No outputs file is ever written here. */
const project = mkdtempSync(join(tmpdir(), 'petstore-stage-outputs-'));
let dynamoDb: EmbeddedDynamoDb;
let cloudFormation: Awaited<ReturnType<typeof startCloudFormationStandIn>>;
/** The stand-ins' profile (its region, ap-south-1, is no stage's), and CloudFormation's endpoint. */
let env: Record<string, string | undefined>;

beforeAll(async () => {
  [dynamoDb, cloudFormation] = await Promise.all([startEmbeddedDynamoDb(), startCloudFormationStandIn()]);
  env = {
    ...standInProfile(project, { dynamodb: dynamoDb.endpoint }),
    AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.url,
  };
  // Staging's stack, as deployed before the probe's secret and the functions' names were outputs;
  // production has none.
  cloudFormation.stacks.set('petstore-staging', {
    TableName5A1B2C: 'petstore-staging',
    UsagePlanId9F8E: 'up-staging',
    Region: regions.staging,
  });
});
afterEach(killScripts);
afterAll(async () => {
  await Promise.all([dynamoDb.close(), cloudFormation.close()]);
  rmSync(project, { recursive: true, force: true });
});

/** `npm run prune-versions` or `npm run test:e2e` in the project, to its end: exit code and output. */
async function run(script: string, args: string[]) {
  const started = runScript(script, args, env, { cwd: project });
  const closed = new Promise((resolve) => started.child.once('close', resolve));
  const code = await started.exited;
  await closed;
  return { code, output: started.output() };
}

describe('a --stage tool without cdk-outputs.<stage>.json', () => {
  it("reads the stage's outputs from its stack, asked in the stage's region", async () => {
    const table = await openLocalDynamoDb({ endpoint: dynamoDb.endpoint, tableName: 'petstore-staging' });
    const { id } = await createApiKeyStore(table.table).issue('on-call client');
    await table.close();

    const listed = await keysIn(env, ['list', '--stage', 'staging'], { cwd: project });
    expect(listed.code).toBe(0);
    expect(listed.firstLine).toBe(
      `keys: table petstore-staging in ${regions.staging}, usage plan up-staging (stage staging)`,
    );
    expect(listed.output).toMatch(new RegExp(`${id}\\s+\\S+\\s+full\\s+active\\s+on-call client`));
    expect(cloudFormation.calls).toContainEqual({
      action: 'DescribeStacks',
      stackName: 'petstore-staging',
      region: regions.staging,
    });
    expect(existsSync(join(project, 'cdk-outputs.staging.json'))).toBe(false);
  });

  it('says in one line that the stack does not exist, and what to do', async () => {
    const line =
      `cdk-outputs.production.json not found, and CloudFormation could not describe stack petstore-production ` +
      `in ${regions.production} (ValidationError: Stack with id petstore-production does not exist): ` +
      'deploy first (npm run deploy:production), or export an AWS_PROFILE that can read the stack.';
    const [keys, prune, e2e] = await Promise.all([
      keysIn(env, ['list', '--stage', 'production'], { cwd: project }),
      run('scripts/prune-versions.ts', ['--stage', 'production']),
      run('scripts/e2e.ts', ['--stage', 'production', '--api-key', 'k']),
    ]);
    expect([keys, prune, e2e]).toEqual([
      { code: 1, output: `keys: ${line}\n`, firstLine: `keys: ${line}` },
      { code: 1, output: `prune-versions: ${line}\n` },
      // Its lines end without a period.
      { code: 2, output: `petstore e2e: ${line.replace(/\.$/, '')}\n` },
    ]);
  });

  it('says in one line which output the stack lacks', async () => {
    const lacking = (name: string) =>
      `No ${name} output in stack petstore-staging (${regions.staging}): ` +
      "deploy again (npm run deploy:staging) to write this version's outputs.";
    const before = cloudFormation.calls.length;
    const probe = await keysIn(env, ['probe', '--stage', 'staging'], { cwd: project });
    // It reads two sets of outputs, the table's and then the secret's, from one DescribeStacks.
    expect(cloudFormation.calls.slice(before).map(({ action }) => action)).toEqual(['DescribeStacks']);
    const [prune, e2e] = await Promise.all([
      run('scripts/prune-versions.ts', ['--stage', 'staging']),
      run('scripts/e2e.ts', ['--stage', 'staging', '--api-key', 'k']),
    ]);
    // The probe's first line names the table it reached, before it asks for the secret's output.
    expect(probe.code).toBe(1);
    expect(probe.output.trim().split('\n')).toEqual([
      probe.firstLine,
      `keys: ${lacking('ProbeKeySecretArn')}`,
    ]);
    expect([prune, e2e]).toEqual([
      { code: 1, output: `prune-versions: ${lacking('FunctionNames')}\n` },
      { code: 2, output: `petstore e2e: ${lacking('ApiUrl').replace(/\.$/, '')}\n` },
    ]);
  });
});
