// The single-table layout: generic key attributes, one GSI on status, a TTL attribute. Every item
// type's keys are built here, so the adapters, the local server and the CDK table agree.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { PetStatus } from '#shared/schemas.ts';

export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;
/** The condition of every write that must never replace an item. */
export const IF_ABSENT = `attribute_not_exists(${TABLE_KEY.partitionKey})`;
export const STATUS_INDEX = { name: 'byStatus', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } as const;
export const TTL_ATTRIBUTE = 'expiresAt';
export const DEFAULT_TABLE_NAME = 'petstore-local';

/** Ids are zero-padded so that string order is numeric order (2^53 has 16 digits). */
export const idSortKey = (id: number) => id.toString().padStart(16, '0');

export const PET_PARTITION = 'PET';
export const petKey = (id: number) => ({ pk: PET_PARTITION, sk: idSortKey(id) });
export const petIndexKey = (id: number, status: PetStatus) => ({
  gsi1pk: statusPartition(status),
  gsi1sk: idSortKey(id),
});
export const statusPartition = (status: PetStatus) => `STATUS#${status}`;

export const petIdCounterKey = { pk: 'COUNTER', sk: 'PET_ID' } as const;

/** Only the local server keeps its cursor secret here; deployed stages get it from Secrets Manager. */
export const cursorSecretKey = { pk: 'CONFIG', sk: 'CURSOR_SECRET' } as const;

export const API_KEY_PARTITION = 'APIKEY';
export const apiKeyKey = (keyHash: string) => ({ pk: API_KEY_PARTITION, sk: keyHash });

export const idempotencyKey = (scope: string, keyHash: string) => ({
  pk: `IDEMPOTENCY#${scope}`,
  sk: keyHash,
});

export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      TABLE_KEY.partitionKey,
      TABLE_KEY.sortKey,
      STATUS_INDEX.partitionKey,
      STATUS_INDEX.sortKey,
    ].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: STATUS_INDEX.name,
        KeySchema: [
          { AttributeName: STATUS_INDEX.partitionKey, KeyType: 'HASH' },
          { AttributeName: STATUS_INDEX.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
}
