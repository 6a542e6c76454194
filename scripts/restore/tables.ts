// The two tables of a restore, checked before anything is written: the source exists, is ACTIVE and
// has the stage table's key schema, and both lay pets out alike. The source is then read page by page.
// Each request backs off while DynamoDB throttles, beyond the SDK's own few retries.
import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isThrottling } from '#shared/store/dynamodb.ts';
import type { Item } from '#shared/store/dynamodb.ts';
import { TABLE_KEY, petLayoutItemKey } from '#shared/store/table.ts';
import { KeysError } from '#scripts/keys/target.ts';

/** Full jitter, doubling from the first delay to the longest: ten tries span about half a minute. */
const BACKOFF = { firstMs: 100, longestMs: 5_000, tries: 10 };

/** Sends one request, again after a random wait while DynamoDB throttles it. */
export async function patiently<T>(send: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await send();
    } catch (error) {
      // The table client wraps a throttling that outlasted the SDK's retries as StoreUnavailableError.
      const throttled = isThrottling(error) || isThrottling((error as Error).cause);
      if (!throttled || tried >= BACKOFF.tries) throw error;
      await sleep(Math.random() * Math.min(BACKOFF.longestMs, BACKOFF.firstMs * 2 ** tried));
    }
  }
}

const NOTHING_WRITTEN = 'nothing was written';
const EXPECTED_KEY_SCHEMA = `${TABLE_KEY.partitionKey} HASH S, ${TABLE_KEY.sortKey} RANGE S`;

/** `pk HASH S, sk RANGE S`: each key attribute, its role and its type. */
function keySchemaOf({ KeySchema = [], AttributeDefinitions = [] }: TableDescription) {
  const typeOf = (name = '') =>
    AttributeDefinitions.find((each) => each.AttributeName === name)?.AttributeType;
  return KeySchema.map(
    ({ AttributeName, KeyType }) => `${AttributeName} ${KeyType} ${typeOf(AttributeName)}`,
  ).join(', ');
}

async function describe(client: DynamoDBDocumentClient, tableName: string) {
  try {
    return (await patiently(() => client.send(new DescribeTableCommand({ TableName: tableName })))).Table;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

async function layoutShards(client: DynamoDBDocumentClient, tableName: string) {
  const command = new GetCommand({ TableName: tableName, Key: petLayoutItemKey, ConsistentRead: true });
  const shards = (await patiently(() => client.send(command))).Item?.shards;
  return shards === undefined ? undefined : Number(shards);
}

/**
 * Refuses, in one line, a missing target, and a source that is the target, is missing, is not ACTIVE,
 * has another key schema, or lays pets out in another number of shards (its counters would hand out
 * taken ids). Returns the source's item count as DynamoDB last measured it (every six hours or so).
 */
export async function checkTables(
  client: DynamoDBDocumentClient,
  { source, target, where }: { source: string; target: string; where: string },
): Promise<number> {
  if (source === target)
    throw new KeysError(`--from names the table it would restore into (${target}): ${NOTHING_WRITTEN}.`);
  if (!(await describe(client, target))) throw new KeysError(`${where} does not exist: ${NOTHING_WRITTEN}.`);
  const table = await describe(client, source);
  if (!table) throw new KeysError(`no table ${source} beside ${where}: ${NOTHING_WRITTEN}.`);
  const keySchema = keySchemaOf(table);
  if (keySchema !== EXPECTED_KEY_SCHEMA)
    throw new KeysError(
      `table ${source} has the key schema ${keySchema || 'none'}, not ${EXPECTED_KEY_SCHEMA}: it is no pet store table; ${NOTHING_WRITTEN}.`,
    );
  if (table.TableStatus !== 'ACTIVE')
    throw new KeysError(
      `table ${source} is ${table.TableStatus}: wait until it is ACTIVE (aws dynamodb wait table-exists); ${NOTHING_WRITTEN}.`,
    );
  const [sourceShards, targetShards] = await Promise.all([
    layoutShards(client, source),
    layoutShards(client, target),
  ]);
  if (sourceShards !== undefined && targetShards !== undefined && sourceShards !== targetShards)
    throw new KeysError(
      `table ${source} holds pets in ${sourceShards} shards and ${target} in ${targetShards}: its id counters would hand out taken ids; ${NOTHING_WRITTEN}.`,
    );
  return table.ItemCount ?? 0;
}

/** The source's items, a page at a time. */
export async function* scanPages(client: DynamoDBDocumentClient, tableName: string, pageSize: number) {
  let startKey: Item | undefined;
  do {
    const command = new ScanCommand({ TableName: tableName, Limit: pageSize, ExclusiveStartKey: startKey });
    const page = await patiently(() => client.send(command));
    yield page.Items ?? [];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}
