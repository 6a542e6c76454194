// The single-table layout: generic key attributes, one GSI on status, a TTL attribute. Every item
// type's keys are built here, so that the code that reads, writes or guards the table agrees on them.
import type { PetStatus } from '#shared/schemas.ts';

export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;
/** The condition of every write that must never replace an item. */
export const IF_ABSENT = `attribute_not_exists(${TABLE_KEY.partitionKey})`;
export const STATUS_INDEX = { name: 'byStatus', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } as const;
export const TTL_ATTRIBUTE = 'expiresAt';

const tableKey = (partition: string, sort: string) => ({
  [TABLE_KEY.partitionKey]: partition,
  [TABLE_KEY.sortKey]: sort,
});

/** Ids are zero-padded so that string order is numeric order (2^53 has 16 digits). */
export const idSortKey = (id: number) => id.toString().padStart(16, '0');

export const PET_PARTITION = 'PET';
export const petItemKey = (id: number) => tableKey(PET_PARTITION, idSortKey(id));
export const statusPartition = (status: PetStatus) => `STATUS#${status}`;
export const petStatusIndexKey = (id: number, status: PetStatus) => ({
  [STATUS_INDEX.partitionKey]: statusPartition(status),
  [STATUS_INDEX.sortKey]: idSortKey(id),
});

export const COUNTER_PARTITION = 'COUNTER';
export const petIdCounterItemKey = tableKey(COUNTER_PARTITION, 'PET_ID');

export const API_KEY_PARTITION = 'APIKEY';
export const apiKeyItemKey = (keyHash: string) => tableKey(API_KEY_PARTITION, keyHash);

/** One partition of idempotency records per API key; the pattern matches all of them (IAM). */
const IDEMPOTENCY_PARTITION_PREFIX = 'IDEMPOTENCY#';
export const IDEMPOTENCY_PARTITIONS = `${IDEMPOTENCY_PARTITION_PREFIX}*`;
export const idempotencyItemKey = (scope: string, keyHash: string) =>
  tableKey(`${IDEMPOTENCY_PARTITION_PREFIX}${scope}`, keyHash);
