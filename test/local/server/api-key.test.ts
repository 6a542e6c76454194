// The key `npm start` offers, on a real DynamoDB. A table on AWS cannot be reached from here, so
// the test names the test table "not owned", which is all that tells the server it is on AWS.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { localApiKey, localApiKeyFile } from '#local/server/api-key.ts';
import { testApiKeys, testTable } from '#test/support/test-table.ts';

const onAws = { owned: false, tableName: testTable.tableName };
const owned = { owned: true, tableName: testTable.tableName };

describe('the key npm start offers', () => {
  it('on AWS, refuses to start without a key and writes nothing', async () => {
    await expect(localApiKey(testApiKeys, onAws, { given: undefined })).rejects.toThrow(
      /^set PETSTORE_API_KEY to an active key/,
    );
    await expect(localApiKey(testApiKeys, onAws, { given: 'k_not_there' })).rejects.toThrow(
      `PETSTORE_API_KEY is not an active key of table ${testTable.tableName}.`,
    );
    expect(await testApiKeys.list()).toEqual([]);
  });

  it('on AWS, accepts a key that is already active there', async () => {
    const { key } = await testApiKeys.issue('staging client');
    expect(await localApiKey(testApiKeys, onAws, { given: key })).toMatchObject({
      key: key,
      origin: 'PETSTORE_API_KEY',
    });
    expect(await testApiKeys.list()).toHaveLength(1);
  });

  it('in a DynamoDB it owns, registers PETSTORE_API_KEY once, or issues a key', async () => {
    expect(await localApiKey(testApiKeys, owned, { given: 'k_local' })).toMatchObject({
      key: 'k_local',
      origin: 'PETSTORE_API_KEY',
    });
    expect(await localApiKey(testApiKeys, owned, { given: 'k_local' })).toMatchObject({
      key: 'k_local',
      origin: 'PETSTORE_API_KEY',
    });
    expect(await localApiKey(testApiKeys, owned, { given: undefined })).toMatchObject({
      key: expect.stringMatching(/^psk_/),
      origin: 'new',
    });
    expect((await testApiKeys.list()).map((key) => key.name).sort()).toEqual([
      'local',
      'local (PETSTORE_API_KEY)',
      'staging client',
    ]);
  });

  it('with a data directory, keeps its key in a file and reuses it while it is active', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-key-'));
    const keyFile = localApiKeyFile(dataDir, testTable.tableName);
    try {
      const first = await localApiKey(testApiKeys, owned, { given: undefined, keyFile });
      expect(first).toEqual({ key: expect.stringMatching(/^psk_/), origin: 'new', keyFile });
      expect(readFileSync(keyFile, 'utf8')).toBe(`${first.key}\n`);
      if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const again = await localApiKey(testApiKeys, owned, { given: undefined, keyFile });
      expect(again).toEqual({ key: first.key, origin: 'kept', keyFile });
      const active = (await testApiKeys.list()).filter((key) => key.name === 'local' && !key.revokedAt);
      expect(active.length).toBeGreaterThan(0);
      for (const key of active) await testApiKeys.revoke(key.id);
      const replaced = await localApiKey(testApiKeys, owned, { given: undefined, keyFile });
      expect(replaced).toMatchObject({ origin: 'new' });
      expect(replaced.key).not.toBe(first.key);
      expect(readFileSync(keyFile, 'utf8')).toBe(`${replaced.key}\n`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a PETSTORE_API_KEY that has expired, on AWS and in a DynamoDB it owns', async () => {
    const { key: expiredKey } = await testApiKeys.issue('lapsed', {
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
    });
    await expect(localApiKey(testApiKeys, onAws, { given: expiredKey })).rejects.toThrow(
      `PETSTORE_API_KEY is not an active key of table ${testTable.tableName}.`,
    );
    const stored = await testApiKeys.list();
    await expect(localApiKey(testApiKeys, owned, { given: expiredKey })).rejects.toThrow(
      'PETSTORE_API_KEY was revoked in this table, or has expired: choose another key.',
    );
    expect(await testApiKeys.list()).toEqual(stored);
  });
});
