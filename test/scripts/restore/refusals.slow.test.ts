// What `npm run restore` refuses before it writes anything, each in one line with exit 1: no --from, a
// missing target, a source that is the target, missing, not a pet store table, or laid out in other shards.
import { afterAll, describe, expect, it } from '@jest/globals';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { toPetItem } from '#shared/store/pet-item.ts';
import { petLayoutItemKey } from '#shared/store/table.ts';
import { killScripts } from '#test/support/process.ts';
import { allItems, openTable, putItems, restore } from '#test/scripts/restore/command.ts';

let target: LocalDynamoDb;
let backup: LocalDynamoDb;
const tables: LocalDynamoDb[] = [];
afterAll(async () => {
  killScripts();
  await Promise.all(tables.map((table) => table.close()));
});

/** Restores into the target from `from`, and shows that the target is as it was. */
async function refused(args: string[]) {
  if (tables.length === 0) {
    [target, backup] = [await openTable('refusing'), await openTable('refused-backup')];
    tables.push(target, backup);
  }
  await putItems(backup, [toPetItem({ id: 1, name: 'Rex', categoryId: 1n, status: 'sold' })]);
  const items = await allItems(target);
  const run = await restore(target, args);
  expect(run.code).toBe(1);
  expect(await allItems(target)).toEqual(items);
  return run.lastError;
}

describe('npm run restore refuses, writing nothing', () => {
  it('without --from', async () => {
    expect(await refused([])).toBe(
      'usage: npm run restore -- --from TABLE [--dry-run] [--stage staging|production] [--port PORT]',
    );
  });

  it('an unknown option', async () => {
    expect(await refused(['--from', 'x', '--force'])).toMatch(/^usage: npm run restore -- --from TABLE/);
  });

  it('a target table that does not exist, and creates none', async () => {
    await refused([]);
    const missing = `${target.tableName}-missing`;
    const run = await restore({ AWS_ENDPOINT_URL_DYNAMODB: target.endpoint, PETSTORE_TABLE_NAME: missing }, [
      '--from',
      backup.tableName,
    ]);
    expect(run.code).toBe(1);
    expect(run.lastError).toBe(
      `restore: table ${missing} at ${target.endpoint} does not exist: nothing was written.`,
    );
    await expect(
      target.documentClient.send(new DescribeTableCommand({ TableName: missing })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('a source that is the table it would restore into', async () => {
    expect(await refused(['--from', target.tableName])).toBe(
      `restore: --from names the table it would restore into (${target.tableName}): nothing was written.`,
    );
  });

  it('a source that does not exist', async () => {
    expect(await refused(['--from', 'petstore-no-such-table'])).toBe(
      `restore: no table petstore-no-such-table beside table ${target.tableName} at ${target.endpoint}: nothing was written.`,
    );
  });

  it('a source with another key schema', async () => {
    const other = `${backup.tableName}-other`;
    await backup.documentClient.send(
      new CreateTableCommand({
        TableName: other,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    expect(await refused(['--from', other])).toBe(
      `restore: table ${other} has the key schema id HASH N, not pk HASH S, sk RANGE S: it is no pet store table; nothing was written.`,
    );
  });

  it('a source laid out in another number of shards than the target', async () => {
    await putItems(target, [{ ...petLayoutItemKey, shards: 32 }]);
    await putItems(backup, [{ ...petLayoutItemKey, shards: 16 }]);
    expect(await refused(['--from', backup.tableName])).toBe(
      `restore: table ${backup.tableName} holds pets in 16 shards and ${target.tableName} in 32: its id counters would hand out taken ids; nothing was written.`,
    );
  });
});
