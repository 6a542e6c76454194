// The single-table layout: generic key attributes, one GSI per list filter, a TTL attribute, pets
// sharded by id range. Every item type's keys are built here, so that the code that reads, writes or
// guards the table agrees on them.
import type { ListFilters, Pet } from '#shared/schemas.ts';

export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;
/** The condition of every write that must never replace an item. */
export const IF_ABSENT = `attribute_not_exists(${TABLE_KEY.partitionKey})`;
export type SecondaryIndex = { name: string; partitionKey: string; sortKey: string };
export const STATUS_INDEX = {
  name: 'byStatus',
  partitionKey: 'gsi1pk',
  sortKey: 'gsi1sk',
} as const satisfies SecondaryIndex;
export const TTL_ATTRIBUTE = 'expiresAt';

const tableKey = (partition: string, sort: string) => ({
  [TABLE_KEY.partitionKey]: partition,
  [TABLE_KEY.sortKey]: sort,
});

/** Ids are zero-padded so that string order is numeric order (2^53 has 16 digits). */
export const idSortKey = (id: number) => id.toString().padStart(16, '0');

/**
 * Pets are spread over shards by id range, so that their writes spread over as many partition keys
 * while id order stays list order: shard s holds the ids from s * SHARD_ID_SPAN on, under PET#s and
 * STATUS#<status>#s. A pet's shard follows from its id alone.
 */
export const SHARD_ID_SPAN = 2 ** 47;
/** As many as the largest pet id (2^53 - 1, PET_ID_MAX) reaches; a type-only import keeps zod out. */
export const MAX_PET_SHARDS = Math.floor(Number.MAX_SAFE_INTEGER / SHARD_ID_SPAN) + 1;
/** The shards tables are created with: enough that no key passes its limit at the target rates. */
export const PET_SHARDS = 32;
export const petShardOf = (id: number) => Math.floor(id / SHARD_ID_SPAN);

const PET_PARTITION_PREFIX = 'PET#';
/** Every shard's partition (IAM). */
export const PET_PARTITIONS = `${PET_PARTITION_PREFIX}*`;
export const petPartition = (shard: number) => `${PET_PARTITION_PREFIX}${shard}`;
export const petItemKey = (id: number) => tableKey(petPartition(petShardOf(id)), idSortKey(id));

/** How listPets reads one filter: the index, and the partition of a value's pets in a shard. */
type ListFilter<Value> = { index: SecondaryIndex; partition: (value: Value, shard: number) => string };

/**
 * Each filter of listPets' query (shared/schemas.ts) with the index that lists its pets in id order.
 * The type checker holds this record to the query's filters, and each filter to a field of Pet: a pet
 * carries an index's keys for each filter it has a value of (petIndexKeys).
 */
export const LIST_FILTERS: {
  [Name in keyof ListFilters]-?: Name extends keyof Pet ? ListFilter<NonNullable<Pet[Name]>> : never;
} = {
  status: { index: STATUS_INDEX, partition: (status, shard) => `STATUS#${status}#${shard}` },
};
export type ListFilterName = keyof typeof LIST_FILTERS;
export const LIST_FILTER_NAMES = Object.keys(LIST_FILTERS) as ListFilterName[];

/**
 * The table's secondary indexes, one per filter, each with key attributes of its own (a pet carries
 * each filter's keys): the table construct, the local setup, IAM and the alarms read it.
 */
export const SECONDARY_INDEXES: readonly SecondaryIndex[] = LIST_FILTER_NAMES.map(
  (name) => LIST_FILTERS[name].index,
);

/** The partition that holds a filter's value in a shard (the schemas type each value as its field's). */
export function filterPartition(name: ListFilterName, value: unknown, shard: number): string {
  return (LIST_FILTERS[name] as ListFilter<unknown>).partition(value, shard);
}

/** The index keys of each filter the pet has a value of. */
export function petIndexKeys(pet: Pet): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of LIST_FILTER_NAMES) {
    const value = pet[name];
    if (value === undefined) continue;
    const { index } = LIST_FILTERS[name];
    keys[index.partitionKey] = filterPartition(name, value, petShardOf(pet.id));
    keys[index.sortKey] = idSortKey(pet.id);
  }
  return keys;
}

export const COUNTER_PARTITION = 'COUNTER';
const COUNTER_SORT_KEY = 'PET_ID_BLOCKS';
/** Counts the blocks of pet ids a young table leased (see id-allocator.ts). */
export const petIdCounterItemKey = tableKey(COUNTER_PARTITION, COUNTER_SORT_KEY);
/** The counters a table leases from once every shard has pets: one partition each (IAM: all of them). */
export const SPREAD_COUNTER_PARTITIONS = `${COUNTER_PARTITION}#*`;
export const spreadPetIdCounterItemKey = (counter: number) =>
  tableKey(`${COUNTER_PARTITION}#${counter}`, COUNTER_SORT_KEY);

/** The shard count a table's pets are laid out for, fixed with the table (local/dynamodb/table-layout.ts). */
export const petLayoutItemKey = tableKey('LAYOUT', 'PETS');

export const API_KEY_PARTITION = 'APIKEY';
export const apiKeyItemKey = (keyHash: string) => tableKey(API_KEY_PARTITION, keyHash);

/**
 * One partition per idempotency record, so that a client's burst of creates spreads like its pets;
 * the pattern matches all of them (IAM).
 */
const IDEMPOTENCY_PARTITION_PREFIX = 'IDEMPOTENCY#';
const IDEMPOTENCY_SORT_KEY = 'RECORD';
export const IDEMPOTENCY_PARTITIONS = `${IDEMPOTENCY_PARTITION_PREFIX}*`;
export const idempotencyItemKey = (scope: string, keyHash: string) =>
  tableKey(`${IDEMPOTENCY_PARTITION_PREFIX}${scope}#${keyHash}`, IDEMPOTENCY_SORT_KEY);

export type ItemKind = 'pet' | 'counter' | 'layout' | 'apiKey' | 'idempotency';

/** The first counter's partition and every spread one's. */
const ANY_COUNTER_PARTITION = new RegExp(`^${COUNTER_PARTITION}(#\\d+)?$`);

/** The kind of item a key belongs to, from the key alone; undefined for a key no kind has. */
export function itemKindOf(key: Record<string, unknown>): ItemKind | undefined {
  const [partition, sort] = [String(key[TABLE_KEY.partitionKey]), String(key[TABLE_KEY.sortKey])];
  if (partition.startsWith(PET_PARTITION_PREFIX)) return 'pet';
  if (sort === COUNTER_SORT_KEY && ANY_COUNTER_PARTITION.test(partition)) return 'counter';
  if (partition === petLayoutItemKey.pk && sort === petLayoutItemKey.sk) return 'layout';
  if (partition === API_KEY_PARTITION) return 'apiKey';
  if (partition.startsWith(IDEMPOTENCY_PARTITION_PREFIX) && sort === IDEMPOTENCY_SORT_KEY)
    return 'idempotency';
  return undefined;
}
