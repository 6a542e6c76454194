// Creating the local table on the test DynamoDB when several servers start at once: exactly one
// creates it, with an index per list filter, and the others use it. A DynamoDB that refuses the
// table is said to refuse it, not taken for a wrong endpoint.
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, expect, it } from '@jest/globals';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { ensureTable } from '#local/dynamodb/table-setup.ts';
import { SECONDARY_INDEXES, TABLE_KEY } from '#shared/store/table.ts';

const client = new DynamoDBClient({});
afterAll(() => client.destroy());

it('lets concurrent servers ensure one table: one creates it, the others use it', async () => {
  const tableName = `petstore-race-${Date.now()}`;
  const created = await Promise.all([1, 2, 3].map(() => ensureTable(client, tableName)));
  expect(created.filter(Boolean)).toHaveLength(1);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(
    SECONDARY_INDEXES.map(({ name }) => name),
  );
  expect(await ensureTable(client, tableName)).toBe(false);
});

it('gives each list filter an index of its own, with key attributes of its own', () => {
  expect(SECONDARY_INDEXES.map(({ name }) => name)).toContain('byStatus');
  const names = SECONDARY_INDEXES.map(({ name }) => name);
  const attributes = [TABLE_KEY, ...SECONDARY_INDEXES].flatMap(({ partitionKey, sortKey }) => [
    partitionKey,
    sortKey,
  ]);
  expect(new Set(names).size).toBe(names.length);
  expect(new Set(attributes).size).toBe(attributes.length);
});

it('says that a DynamoDB refuses to set up a table, naming the table and its reason', async () => {
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '';
  await expect(openLocalDynamoDb({ endpoint, tableName: 'bad name!' })).rejects.toThrow(
    new RegExp(
      `^DynamoDB at ${endpoint} refused to set up table bad name!: ValidationException \\(.*tableName`,
    ),
  );
});
