// Creates the single table (with its GSIs and TTL) when it does not exist yet, for the DynamoDBs
// that tools outside Lambda own. Deployed tables come from the CDK stack, on the same layout.
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import type {
  CreateTableCommandInput,
  DescribeTableCommandOutput,
  DynamoDBClient,
  TableDescription,
} from '@aws-sdk/client-dynamodb';
import { SECONDARY_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '#shared/store/table.ts';

function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [TABLE_KEY, ...SECONDARY_INDEXES]
      .flatMap(({ partitionKey, sortKey }) => [partitionKey, sortKey])
      .map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: SECONDARY_INDEXES.map(({ name, partitionKey, sortKey }) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}

/** The table as DynamoDB describes it; undefined when there is none. */
export async function describeTable(
  client: { send(command: DescribeTableCommand): Promise<DescribeTableCommandOutput> },
  tableName: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

/** Returns true when it created the table, false when the table was already there. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  if (await describeTable(client, tableName)) return false;
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
