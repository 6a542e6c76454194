// Creating the local table on the test DynamoDB when several servers start at once: exactly one
// creates it, with its status index, and the others use it.
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, expect, it } from '@jest/globals';
import { ensureTable } from '#local/dynamodb/table-setup.ts';

const client = new DynamoDBClient({});
afterAll(() => client.destroy());

it('lets concurrent servers ensure one table: one creates it, the others use it', async () => {
  const tableName = `petstore-race-${Date.now()}`;
  const created = await Promise.all([1, 2, 3].map(() => ensureTable(client, tableName)));
  expect(created.filter(Boolean)).toHaveLength(1);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(['byStatus']);
  expect(await ensureTable(client, tableName)).toBe(false);
});
