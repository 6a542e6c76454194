// A table's pets stay in the shards they were written for: on a table made for another shard count
// the id counters would hand out ids already taken. A table this machine owns is marked with its
// count when a server first opens it, and one with an id counter and no mark was made for
// LEGACY_PET_SHARDS; a table on AWS is its stack's, so there only a mark that disagrees is refused.
import { LocalSetupError } from '#local/dynamodb/embedded.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { leasedBlocks } from '#shared/store/id-allocator.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { COUNTER_PARTITION, TABLE_KEY, petLayoutItemKey } from '#shared/store/table.ts';

/** What tables made before the mark were spread over. */
export const LEGACY_PET_SHARDS = 16;
/** The id counter of the layout before pets were sharded: its pets are under keys no longer read. */
const UNSHARDED_COUNTER = { [TABLE_KEY.partitionKey]: COUNTER_PARTITION, [TABLE_KEY.sortKey]: 'PET_ID' };
const EMPTY_IT = '(npm run reset -- <dir> for a data directory) or name another table.';

/** The shard count the table is marked with; undefined when it has no mark. */
export async function markedShards(table: TableClient): Promise<number | undefined> {
  const marked = await table.get(petLayoutItemKey);
  return marked ? Number(marked.shards) : undefined;
}

/** Refuses, in one line, a table laid out for another count than `shards`; marks a new one it owns. */
export async function checkTableLayout({ table, tableName, owned }: LocalDynamoDb, shards: number) {
  if (await table.get(UNSHARDED_COUNTER))
    throw new LocalSetupError(
      `Table ${tableName} has the layout from before pets were sharded: empty it ${EMPTY_IT}`,
    );
  const marked = await markedShards(table);
  const counted = owned && marked === undefined && (await leasedBlocks(table)) > 0;
  const madeFor = marked ?? (counted ? LEGACY_PET_SHARDS : undefined);
  if (madeFor === undefined && owned) await table.putIfAbsent({ ...petLayoutItemKey, shards });
  else if (madeFor !== undefined && madeFor !== shards)
    throw new LocalSetupError(
      `Table ${tableName} holds pets in ${madeFor} shards and this version uses ${shards}: empty it ${EMPTY_IT}`,
    );
}
