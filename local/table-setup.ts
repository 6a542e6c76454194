// Creates the single table (with its GSI and TTL) when it does not exist yet. Used by the local
// server and the tests; deployed tables are created by the CDK stack from the same definition.
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { TTL_ATTRIBUTE, tableDefinition } from '#shared/store/table.ts';

async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return false;
    throw error;
  }
}

/** ensureTable with a client of its own, for callers that have none. */
export async function ensureTableNamed(tableName: string): Promise<boolean> {
  const client = new DynamoDBClient({});
  try {
    return await ensureTable(client, tableName);
  } finally {
    client.destroy();
  }
}

/** Returns true when it created the table, false when the table was already there. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  if (await tableExists(client, tableName)) return false;
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
  } catch (error) {
    // Another process (a second server, a parallel test) created it first: theirs will do.
    if ((error as Error).name !== 'ResourceInUseException') throw error;
    await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
    return false;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
  await client
    .send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    )
    .catch((error: Error) => {
      // dynalite does not implement TTL; the code that reads expiring records checks expiry itself.
      if (error.name !== 'UnknownOperationException') throw error;
    });
  return true;
}
