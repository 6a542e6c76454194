// What each function may do on the table: exactly the calls its code makes, each limited to the
// partitions it touches (IAM's dynamodb:LeadingKeys). listPets and getPet cannot read API key hashes
// or idempotency records, createPet cannot read keys, the authorizer can read nothing but keys.
import {
  API_KEY_PARTITION,
  COUNTER_PARTITION,
  IDEMPOTENCY_PARTITIONS,
  PET_PARTITIONS,
  SPREAD_COUNTER_PARTITIONS,
} from '#shared/store/table.ts';

export type TableAccess = 'readPets' | 'createPets' | 'readApiKeys';

export type TableAccessRule =
  { actions: string[]; partitions: string[] } | { actions: string[]; indexes: true };

export const TABLE_ACCESS_RULES: Record<TableAccess, TableAccessRule[]> = {
  readPets: [
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], partitions: [PET_PARTITIONS] },
    // The id counter's count of blocks: which shards hold pets yet.
    { actions: ['dynamodb:GetItem'], partitions: [COUNTER_PARTITION] },
    // Only pets carry the indexes' keys, so the indexes hold nothing else to protect.
    { actions: ['dynamodb:Query'], indexes: true },
  ],
  createPets: [
    // The pet's conditional Put and the read-back of a taken id; claiming and reading a record.
    {
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
      partitions: [PET_PARTITIONS, IDEMPOTENCY_PARTITIONS],
    },
    // Whether the first counter is done with (every shard has pets).
    { actions: ['dynamodb:GetItem'], partitions: [COUNTER_PARTITION] },
    // Leasing a block of ids from a counter; relocking and completing a record.
    {
      actions: ['dynamodb:UpdateItem'],
      partitions: [COUNTER_PARTITION, SPREAD_COUNTER_PARTITIONS, IDEMPOTENCY_PARTITIONS],
    },
  ],
  readApiKeys: [{ actions: ['dynamodb:GetItem'], partitions: [API_KEY_PARTITION] }],
};
