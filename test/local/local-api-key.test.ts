// The key `npm start` offers, on a real DynamoDB. A table on AWS cannot be reached from here, so
// the test names the test table "not owned", which is all that tells the server it is on AWS.
import { describe, expect, it } from '@jest/globals';
import { localApiKey } from '#local/local-api-key.ts';
import { testApiKeys, testTable } from '#test/support/test-table.ts';

const onAws = { owned: false, tableName: testTable.tableName };
const owned = { owned: true, tableName: testTable.tableName };

describe('the key npm start offers', () => {
  it('on AWS, refuses to start without a key and writes nothing', async () => {
    await expect(localApiKey(testApiKeys, onAws, undefined)).rejects.toThrow(
      /^set PETSTORE_API_KEY to an active key/,
    );
    await expect(localApiKey(testApiKeys, onAws, 'k_not_there')).rejects.toThrow(
      `PETSTORE_API_KEY is not an active key of table ${testTable.tableName}.`,
    );
    expect(await testApiKeys.list()).toEqual([]);
  });

  it('on AWS, accepts a key that is already active there', async () => {
    const { key } = await testApiKeys.issue('staging client');
    expect(await localApiKey(testApiKeys, onAws, key)).toBe(key);
    expect(await testApiKeys.list()).toHaveLength(1);
  });

  it('in a DynamoDB it owns, registers PETSTORE_API_KEY once, or issues a key', async () => {
    expect(await localApiKey(testApiKeys, owned, 'k_local')).toBe('k_local');
    expect(await localApiKey(testApiKeys, owned, 'k_local')).toBe('k_local');
    expect(await localApiKey(testApiKeys, owned, undefined)).toMatch(/^psk_/);
    expect((await testApiKeys.list()).map((key) => key.name).sort()).toEqual([
      'local',
      'local (PETSTORE_API_KEY)',
      'staging client',
    ]);
  });
});
