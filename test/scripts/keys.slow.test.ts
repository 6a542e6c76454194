// `npm run keys` as a user runs it, against each place the keys can be (scripts/keys/target.ts): a
// data directory, a running `npm start` (in memory, or on a data directory), a DynamoDB named by
// AWS_ENDPOINT_URL_DYNAMODB, and a stage, with a local stand-in for AWS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import { issuedKey, keysIn, standInProfile, statusOf } from '#test/scripts/keys/command.ts';

const temporary = (name: string) => mkdtempSync(join(tmpdir(), `petstore-keys-${name}-`));
const dataDir = temporary('data');
const created: string[] = [dataDir];
afterEach(killScripts);
afterAll(() => created.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

type Env = Record<string, string | undefined>;

const keys = (...args: string[]) => keysIn({ PETSTORE_DATA_DIR: dataDir }, args);

async function statusWith(key: string) {
  const server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_DATA_DIR: dataDir });
  const status = await statusOf(await bannerUrl(server), key);
  server.child.kill('SIGTERM');
  await server.exited;
  return status;
}

describe('a data directory, its server stopped', () => {
  it('creates a key shown once, lists it without the key, and revokes it', async () => {
    const issued = await keys('create', '--name', 'store client');
    expect(issued.code).toBe(0);
    expect(issued.firstLine).toBe(`keys: table petstore-local in PETSTORE_DATA_DIR ${dataDir}`);
    const { id, key } = issuedKey(issued.output);
    expect(await statusWith(key)).toBe(200);

    const listed = await keys('list');
    expect(listed.output).toMatch(new RegExp(`${id}\\s+\\S+\\s+full\\s+active\\s+store client`));
    expect(listed.output).not.toContain(key);

    const revoked = await keys('revoke', id);
    expect(revoked.code).toBe(0);
    expect(revoked.output).toContain(`Revoked ${id}:`);
    const listedAfter = (await keys('list')).output;
    const revokedAt = new RegExp(`${id}\\s+\\S+\\s+full\\s+revoked (\\S+)`).exec(listedAfter)?.[1];
    expect(revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await statusWith(key)).toBe(401);

    // Again: the key stays revoked since then, and the command says that nothing changed.
    const again = await keys('revoke', id);
    expect(again.code).toBe(0);
    expect(again.output).toContain(`${id} was revoked already, at ${revokedAt}: nothing changed.`);
    expect(again.output).not.toContain('Revoked');
  });

  it('fails with the usage line for an unknown command and with a message for an unknown id', async () => {
    const unknown = await keys('rename');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('usage: npm run keys');
    const missing = await keys('revoke', 'key_missing');
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('keys: No key with id key_missing.');
  });

  it('refuses to start with a PETSTORE_API_KEY that was revoked in its data', async () => {
    const env = { PORT: '0', PETSTORE_DATA_DIR: dataDir, PETSTORE_API_KEY: 'k_revoked' };
    const first = runScript('local/start.ts', [], env);
    await bannerUrl(first);
    first.child.kill('SIGTERM');
    await first.exited;
    const id = /(key_[0-9a-f]+)\s+\S+\s+full\s+active\s+local \(PETSTORE_API_KEY\)/.exec(
      (await keys('list')).output,
    )?.[1];
    expect((await keys('revoke', id ?? '')).code).toBe(0);
    const second = runScript('local/start.ts', [], env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('PETSTORE_API_KEY was revoked in this table');
  });

  it('says in one line that the directory is locked by a server it cannot reach', async () => {
    // This process holds the lock, as a server would, but writes no record of itself.
    const lockedDir = temporary('locked');
    created.push(lockedDir);
    const embedded = await startEmbeddedDynamoDb({ dataDir: lockedDir });
    const holder = await openLocalDynamoDb({ endpoint: embedded.endpoint });
    try {
      const locked = await keysIn({ PETSTORE_DATA_DIR: lockedDir }, ['list']);
      expect(locked.code).toBe(1);
      // One line (the embedded DynamoDB's own message), and no stack.
      expect(locked.output).toMatch(
        new RegExp(`^keys: PETSTORE_DATA_DIR ${lockedDir} is in use by another server[^\\n]*\\n$`),
      );
    } finally {
      await holder.close();
      await embedded.close();
    }
  });
});

describe('a running npm start', () => {
  it("is not one of the checkout's while the tests run it, so npm run keys beside npm test finds yours", async () => {
    const server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_API_KEY: 'k' });
    const url = await bannerUrl(server);
    // What `npm run keys` in another terminal sees: the checkout's records, not the test run's.
    const beside = await keysIn({ PETSTORE_SERVERS_DIR: undefined }, ['list', '--port', new URL(url).port]);
    expect(beside.code).toBe(1);
    expect(beside.output).toMatch(/^keys: no running npm start (found|on port \d+ \(--port\))/);
  });

  it('manages the keys of an in-memory server chosen by --port, which takes them at once', async () => {
    const server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_API_KEY: 'k' });
    const url = await bannerUrl(server);
    const port = ['--port', new URL(url).port];

    const issued = await keysIn({}, ['create', '--name', 'memory client', ...port]);
    expect(issued.code).toBe(0);
    expect(issued.firstLine).toBe(`keys: table petstore-local of the running server ${url}`);
    const { id, key } = issuedKey(issued.output);
    expect(await statusOf(url, key)).toBe(200);

    const listed = await keysIn({}, ['list', ...port]);
    expect(listed.output).toMatch(new RegExp(`${id}\\s+\\S+\\s+full\\s+active\\s+memory client`));
    expect((await keysIn({}, ['revoke', id, ...port])).code).toBe(0);
    expect(await statusOf(url, key)).toBe(401);
  });

  it('goes through the server that uses PETSTORE_DATA_DIR while it runs', async () => {
    const serverDir = temporary('served');
    created.push(serverDir);
    const server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_DATA_DIR: serverDir });
    const url = await bannerUrl(server);
    // The same directory, spelled another way.
    const spelled = join(serverDir, '.');

    const issued = await keysIn({ PETSTORE_DATA_DIR: spelled }, ['create', '--name', 'disk client']);
    expect(issued.code).toBe(0);
    expect(issued.firstLine).toBe(
      `keys: table petstore-local of the running server ${url} (PETSTORE_DATA_DIR ${spelled})`,
    );
    expect(await statusOf(url, issuedKey(issued.output).key)).toBe(200);
  });

  describe('chosen among the recorded ones', () => {
    const records = temporary('servers');
    created.push(records);
    const recordServer = async (url: string) => {
      const recorded = runScript(
        'test/scripts/keys/recorded-server.ts',
        [records, url, 'http://127.0.0.1:9'],
        {},
      );
      await recorded.waitFor(/recorded/);
    };

    it('says in one line that none runs', async () => {
      const none = await keysIn({ PETSTORE_SERVERS_DIR: records }, ['list']);
      expect(none.code).toBe(1);
      expect(none.output.trim()).toBe(
        'keys: no running npm start found: start one, or use --stage, AWS_ENDPOINT_URL_DYNAMODB or PETSTORE_DATA_DIR.',
      );
    });

    it('lists several in one line, to choose with --port', async () => {
      await recordServer('http://127.0.0.1:41001');
      await recordServer('http://127.0.0.1:41002');
      const several = await keysIn({ PETSTORE_SERVERS_DIR: records }, ['list']);
      expect(several.code).toBe(1);
      expect(several.output.trim()).toBe(
        'keys: several npm start are running (http://127.0.0.1:41001, http://127.0.0.1:41002): choose one with --port.',
      );
      const elsewhere = await keysIn({ PETSTORE_SERVERS_DIR: records, PORT: '41003' }, ['list']);
      expect(elsewhere.output.trim()).toBe(
        'keys: no running npm start on port 41003 (PORT); running: http://127.0.0.1:41001, http://127.0.0.1:41002.',
      );
      // --port picks the second: its DynamoDB (a closed port) then says it does not answer.
      const chosen = await keysIn({ PETSTORE_SERVERS_DIR: records }, ['list', '--port', '41002']);
      expect(chosen.code).toBe(1);
      expect(chosen.output.trim()).toBe(
        'keys: the running server http://127.0.0.1:41002 has its DynamoDB at http://127.0.0.1:9, which does not answer: restart the server.',
      );
    });
  });
});

describe('a DynamoDB named by AWS_ENDPOINT_URL_DYNAMODB', () => {
  it('is reached with dummy credentials, whatever the AWS profile and with no credentials at all', async () => {
    const dynamoDb = await startEmbeddedDynamoDb();
    const awsDir = temporary('no-aws');
    created.push(awsDir);
    writeFileSync(join(awsDir, 'empty'), '');
    writeFileSync(
      join(awsDir, 'cdk-outputs.staging.json'),
      '{"Staging":{"TableName":"t","UsagePlanId":"p","Region":"eu-west-1"}}',
    );
    const endpoint = dynamoDb.endpoint.replace('127.0.0.1', 'localhost');
    const noCredentials: Env = {
      AWS_PROFILE: 'no-such-profile',
      AWS_CONFIG_FILE: join(awsDir, 'empty'),
      AWS_SHARED_CREDENTIALS_FILE: join(awsDir, 'empty'),
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_SESSION_TOKEN: undefined,
      AWS_REGION: undefined,
    };
    const env = {
      ...noCredentials,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      PETSTORE_TABLE_NAME: 'keys-elsewhere',
    };
    try {
      const issued = await keysIn(env, ['create', '--name', 'elsewhere client']);
      expect(issued.code).toBe(0);
      expect(issued.firstLine).toBe(`keys: table keys-elsewhere at ${endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`);
      const { id } = issuedKey(issued.output);
      const direct = await openLocalDynamoDb({ endpoint: dynamoDb.endpoint, tableName: 'keys-elsewhere' });
      expect((await createApiKeyStore(direct.table).list()).map((key) => key.id)).toEqual([id]);
      await direct.close();

      // The same environment has no credentials for AWS itself: only the dummy ones made it work.
      const onAws = await keysIn(noCredentials, ['list', '--stage', 'staging'], {
        cwd: awsDir,
      });
      expect(onAws.code).toBe(1);
      expect(onAws.output).toContain(
        'keys: table t in eu-west-1: Could not load credentials from any providers: sign in (aws sso login) or choose a profile (AWS_PROFILE)',
      );
    } finally {
      await dynamoDb.close();
    }
  });
});

describe('a stage', () => {
  // AWS itself cannot run here: a local dynalite stands in for the stage's DynamoDB, reached the
  // way the SDK reaches any configured endpoint, from the profile (AWS_CONFIG_FILE). The region,
  // credentials and table name come as they would for a real stage.
  it("is reached in the stage's region, whatever the profile's or AWS_REGION", async () => {
    const standIn = await startEmbeddedDynamoDb();
    const project = temporary('stage');
    created.push(project);
    // No API Gateway here: a closed port.
    const env = standInProfile(project, {
      dynamodb: standIn.endpoint,
      api_gateway: 'http://127.0.0.1:9',
    });
    writeFileSync(
      join(project, 'cdk-outputs.staging.json'),
      JSON.stringify({
        'Staging-Petstore': {
          TableName5A1B2C: 'petstore-staging',
          UsagePlanId9F8E: 'up123',
          Region: 'eu-west-3',
        },
      }),
    );
    const stageKeys = (args: string[], more: Env = {}) =>
      keysIn({ ...env, ...more }, [...args, '--stage', 'staging'], { cwd: project });
    try {
      const absent = await stageKeys(['list']);
      expect(absent.code).toBe(1);
      expect(absent.firstLine).toBe(
        'keys: table petstore-staging in eu-west-3, usage plan up123 (stage staging)',
      );
      expect(absent.output).toContain(
        'keys: table petstore-staging in eu-west-3: no such table there (Requested resource not found)',
      );

      const table = await openLocalDynamoDb({ endpoint: standIn.endpoint, tableName: 'petstore-staging' });
      const { id } = await createApiKeyStore(table.table).issue('stage client');
      await table.close();
      // A local DynamoDB named for npm start (here a closed port) does not take a stage's requests.
      const listed = await stageKeys(['list'], { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9' });
      expect(listed.code).toBe(0);
      expect(listed.firstLine).toBe(
        'keys: table petstore-staging in eu-west-3, usage plan up123 (stage staging)',
      );
      expect(listed.output).toMatch(new RegExp(`${id}\\s+\\S+\\s+full\\s+active\\s+stage client`));

      // A key the usage plan cannot take is revoked again, and that is said in one line.
      const unplanned = await stageKeys(['create', '--name', 'unplanned client']);
      expect(unplanned.code).toBe(1);
      const [, unplannedId = ''] =
        /^keys: usage plan up123 in eu-west-3: .*ECONNREFUSED.* \((key_[0-9a-f]+) is revoked again\)$/m.exec(
          unplanned.output,
        ) ?? [];
      expect(unplannedId).toMatch(/^key_/);
      expect((await stageKeys(['list'])).output).toMatch(
        new RegExp(`${unplannedId}\\s+\\S+\\s+full\\s+revoked \\S+\\s+unplanned client`),
      );

      // So is a rotation's new key, and the old key is left as it was.
      const unrotated = await stageKeys(['rotate', id, '--overlap', '0s']);
      expect(unrotated.code).toBe(1);
      expect(unrotated.output).toMatch(
        /^keys: usage plan up123 in eu-west-3: .* \(key_[0-9a-f]+ is revoked again\)$/m,
      );
      expect((await stageKeys(['list'])).output).toMatch(
        new RegExp(`${id}\\s+\\S+\\s+full\\s+active\\s+stage client`),
      );

      const elsewhere = await stageKeys(['list'], {
        AWS_REGION: 'eu-north-1',
        AWS_PROFILE: 'no-such-profile',
      });
      expect(elsewhere.firstLine).toBe(
        'keys: table petstore-staging in eu-west-3, usage plan up123 (stage staging)',
      );

      // Outputs of an older deployment, without the region: one line, what to do.
      writeFileSync(
        join(project, 'cdk-outputs.staging.json'),
        JSON.stringify({ 'Staging-Petstore': { TableName: 'petstore-staging', UsagePlanId: 'up123' } }),
      );
      const older = await stageKeys(['list']);
      expect(older.code).toBe(1);
      expect(older.output.trim()).toBe(
        "keys: No Region output in cdk-outputs.staging.json: deploy again (npm run deploy:staging) to write this version's outputs.",
      );
    } finally {
      await standIn.close();
    }
  });
});

describe('the command line', () => {
  it.each(['--help', '-h'])('%s prints the usage and where the keys are, in order', async (flag) => {
    const help = await keysIn({}, [flag]);
    expect(help.code).toBe(0);
    expect(help.output).toMatch(
      /^usage: npm run keys -- <create --name NAME \[--read-only\] \[--expires WHEN\] \| list \| rotate KEY_ID/,
    );
    expect(help.output).toMatch(/--stage[^]*--port[^]*Where the keys are/);
    expect(help.output).toMatch(
      /\n {2}--stage[^]*\n {2}AWS_ENDPOINT_URL_DYNAMODB[^]*\n {2}PETSTORE_DATA_DIR[^]*\n {2}otherwise/,
    );
  });

  it('says an unknown option in one line, then the usage line', async () => {
    const unknown = await keysIn({}, ['list', '--bogus']);
    expect(unknown.code).toBe(1);
    const lines = unknown.output.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^keys: Unknown option '--bogus'/);
    expect(lines[1]).toMatch(/^usage: npm run keys/);
  });
});
