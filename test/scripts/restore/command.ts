// `npm run restore` as an operator runs it, with tables on the test DynamoDB to restore between: its
// stdout (the summary) and stderr (where it went, progress, a failure's one line) apart, and the
// helpers that snapshot a table, as a point-in-time restore would, and read all it holds.
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '#shared/store/dynamodb.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { scanPages } from '#scripts/restore/tables.ts';
import { runToEnd } from '#test/support/process.ts';

type Env = Record<string, string | undefined>;

/** A new table on the test DynamoDB, or on `endpoint`. */
export const openTable = (name: string, endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB) =>
  openLocalDynamoDb({ endpoint, tableName: `petstore-restore-${name}-${randomUUID()}` });

/** Every item of the table, in key order. */
export async function allItems({ documentClient, tableName }: LocalDynamoDb): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of scanPages(documentClient, tableName, 1_000)) items.push(...page);
  const order = (item: Item) => `${item.pk}\u0000${item.sk}`;
  return items.sort((a, b) => order(a).localeCompare(order(b)));
}

export async function putItems({ documentClient, tableName }: LocalDynamoDb, items: Item[]) {
  for (let start = 0; start < items.length; start += 25)
    await Promise.all(
      items
        .slice(start, start + 25)
        .map((item) => documentClient.send(new PutCommand({ TableName: tableName, Item: item }))),
    );
}

export async function deleteItem({ documentClient, tableName }: LocalDynamoDb, key: Item) {
  await documentClient.send(new DeleteCommand({ TableName: tableName, Key: { pk: key.pk, sk: key.sk } }));
}

/** A copy of the table as it is now: what a point-in-time restore of this moment holds. */
export async function snapshot(table: LocalDynamoDb) {
  const copy = await openTable('snapshot', table.endpoint);
  await putItems(copy, await allItems(table));
  return copy;
}

/** One `npm run restore` into `target` (by AWS_ENDPOINT_URL_DYNAMODB), or where `env` says. */
export async function restore(target: LocalDynamoDb | Env, args: string[], options: { cwd?: string } = {}) {
  const env =
    'tableName' in target
      ? { AWS_ENDPOINT_URL_DYNAMODB: target.endpoint, PETSTORE_TABLE_NAME: String(target.tableName) }
      : target;
  const run = await runToEnd(
    'scripts/restore.ts',
    args,
    { PETSTORE_DATA_DIR: undefined, PORT: undefined, ...env },
    options,
  );
  const { code, stdout, stderr } = run;
  expect(run.output).not.toMatch(/\n\s+at /);
  return { code, stdout, stderr, lastError: stderr.trim().split('\n').at(-1) };
}

/** The summary's lines by kind, without its first line (which says run or dry run). */
export const summaryLines = (stdout: string) => stdout.trim().split('\n').slice(1);
