// The two tables of a restore, checked before anything is written: the source exists, is ACTIVE and
// has the stage table's key schema, and both lay pets out alike. The source is then read page by page.
// Each request backs off while DynamoDB throttles, beyond the SDK's own few retries.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTableClient, isThrottling } from '#shared/store/dynamodb.ts';
import type { Item, TableClient } from '#shared/store/dynamodb.ts';
import { TABLE_KEY } from '#shared/store/table.ts';
import { markedShards } from '#local/dynamodb/table-layout.ts';
import { describeTable } from '#local/dynamodb/table-setup.ts';
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

/**
 * Refuses, in one line, a missing target, and a source that is the target, is missing, is not ACTIVE,
 * has another key schema, or lays pets out in another number of shards (its counters would hand out
 * taken ids). Returns the source's item count as DynamoDB last measured it (every six hours or so).
 */
export async function checkTables(
  {
    documentClient,
    table,
    where,
  }: { documentClient: DynamoDBDocumentClient; table: TableClient; where: string },
  source: string,
): Promise<number> {
  const describe = (tableName: string) => patiently(() => describeTable(documentClient, tableName));
  const target = table.tableName;
  if (source === target)
    throw new KeysError(`--from names the table it would restore into (${target}): ${NOTHING_WRITTEN}.`);
  if (!(await describe(target))) throw new KeysError(`${where} does not exist: ${NOTHING_WRITTEN}.`);
  const described = await describe(source);
  if (!described) throw new KeysError(`no table ${source} beside ${where}: ${NOTHING_WRITTEN}.`);
  const keySchema = keySchemaOf(described);
  if (keySchema !== EXPECTED_KEY_SCHEMA)
    throw new KeysError(
      `table ${source} has the key schema ${keySchema || 'none'}, not ${EXPECTED_KEY_SCHEMA}: it is no pet store table; ${NOTHING_WRITTEN}.`,
    );
  if (described.TableStatus !== 'ACTIVE')
    throw new KeysError(
      `table ${source} is ${described.TableStatus}: wait until it is ACTIVE (aws dynamodb wait table-exists); ${NOTHING_WRITTEN}.`,
    );
  const sourceTable = createTableClient({ tableName: source, documentClient });
  const [sourceShards, targetShards] = await Promise.all(
    [sourceTable, table].map((each) => patiently(() => markedShards(each))),
  );
  if (sourceShards !== undefined && targetShards !== undefined && sourceShards !== targetShards)
    throw new KeysError(
      `table ${source} holds pets in ${sourceShards} shards and ${target} in ${targetShards}: its id counters would hand out taken ids; ${NOTHING_WRITTEN}.`,
    );
  return described.ItemCount ?? 0;
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
