// The table layout check on the test DynamoDB: a new table this machine owns is marked with its shard
// count and opens again; a table marked for another count, or an unmarked one with an id counter (the
// 16-shard version's), is refused in one line; a table on AWS is the stack's, refused only by a mark.
import { randomUUID } from 'node:crypto';
import { afterEach, expect, test } from '@jest/globals';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { LEGACY_PET_SHARDS, checkTableLayout } from '#local/dynamodb/table-layout.ts';
import { petIdCounterItemKey, petLayoutItemKey } from '#shared/store/table.ts';

const opened: LocalDynamoDb[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((dynamoDb) => dynamoDb.close()));
});
async function freshTable() {
  const dynamoDb = await openLocalDynamoDb({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
    tableName: `layout-${randomUUID()}`,
  });
  opened.push(dynamoDb);
  return dynamoDb;
}
const refusal = (dynamoDb: LocalDynamoDb, made: number, uses: number) =>
  `Table ${dynamoDb.tableName} holds pets in ${made} shards and this version uses ${uses}: empty it ` +
  '(npm run reset -- <dir> for a data directory) or name another table.';

test('a new table is marked with its count, and opens again with it', async () => {
  const dynamoDb = await freshTable();
  await checkTableLayout(dynamoDb, 32);
  expect(await dynamoDb.table.get(petLayoutItemKey)).toMatchObject({ shards: 32 });
  await expect(checkTableLayout(dynamoDb, 32)).resolves.toBeUndefined();
  await expect(checkTableLayout(dynamoDb, 8)).rejects.toThrow(refusal(dynamoDb, 32, 8));
});

test('an unmarked table with an id counter was made for the 16-shard version', async () => {
  const dynamoDb = await freshTable();
  await dynamoDb.table.putIfAbsent({ ...petIdCounterItemKey, value: 40 });
  await expect(checkTableLayout(dynamoDb, 32)).rejects.toThrow(refusal(dynamoDb, LEGACY_PET_SHARDS, 32));
  expect(await dynamoDb.table.get(petLayoutItemKey)).toBeUndefined();
});

test("a table on AWS is the stack's: nothing written, refused only by a mark that disagrees", async () => {
  const dynamoDb = await freshTable();
  const onAws = { ...dynamoDb, owned: false };
  await dynamoDb.table.putIfAbsent({ ...petIdCounterItemKey, value: 40 });
  await expect(checkTableLayout(onAws, 32)).resolves.toBeUndefined();
  expect(await dynamoDb.table.get(petLayoutItemKey)).toBeUndefined();
  await dynamoDb.table.putIfAbsent({ ...petLayoutItemKey, shards: 64 });
  await expect(checkTableLayout(onAws, 32)).rejects.toThrow(refusal(dynamoDb, 64, 32));
});
