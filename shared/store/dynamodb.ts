// The table client: the four calls the stores make on the single table (get, putIfAbsent,
// update, query), each one DynamoDB request with the table's name filled in. Timeouts and retries
// are bounded, so that an outage answers 503 well inside the Lambda timeout instead of hanging.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '#shared/store/unavailable-error.ts';
import { IF_ABSENT, TABLE_KEY, TTL_ATTRIBUTE } from '#shared/store/table.ts';
import type { SecondaryIndex } from '#shared/store/table.ts';
import { DYNAMODB_TIMEOUTS } from '#shared/timeouts.ts';

export type Item = Record<string, NativeAttributeValue>;
export type ItemKey = Record<string, string>;

/** Integers come back exact (categoryId may exceed 2^53); any other number as a number. */
function exactNumberAttribute(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) || !/^-?\d+$/.test(text) ? value : BigInt(text);
}

/** One per process, shared by every store; `config` adds an endpoint, region or credentials. */
export function createDocumentClient(config: DynamoDBClientConfig = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      maxAttempts: DYNAMODB_TIMEOUTS.maxAttempts,
      requestHandler: {
        connectionTimeout: DYNAMODB_TIMEOUTS.connectionMs,
        requestTimeout: DYNAMODB_TIMEOUTS.requestMs,
      },
      ...config,
    }),
    {
      marshallOptions: { removeUndefinedValues: true },
      unmarshallOptions: { wrapNumbers: exactNumberAttribute },
    },
  );
}

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);
const NETWORK =
  /\b(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|socket hang up)\b/;

type SdkError = { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };

/** DynamoDB refused the request for its rate: the same request succeeds later. */
export const isThrottling = (error: unknown) => THROTTLING.has((error as SdkError | undefined)?.name ?? '');

/** True when DynamoDB could not be reached or kept throttling after the SDK's own retries. */
function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // Duck-typed, not instanceof: errors may come from another realm (the SDK then wraps them by message).
  const { name = '', code = '', message = '', $metadata } = error as SdkError;
  return (
    isThrottling(error) ||
    name === 'TimeoutError' ||
    NETWORK.test(code) ||
    NETWORK.test(message) ||
    ($metadata?.httpStatusCode ?? 0) >= 500
  );
}

/** The write's condition did not hold (the item exists, the lock moved...): not a failure of DynamoDB. */
const isConditionFailure = (error: unknown) =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException';

/** `#a0 = :v0`-style placeholders for attribute names and values, numbered across one request. */
function placeholders() {
  const names: Record<string, string> = {};
  const values: Record<string, NativeAttributeValue> = {};
  const pairs = (attributes: Item) =>
    Object.entries(attributes).map(([name, value]) => {
      const index = Object.keys(names).length;
      names[`#a${index}`] = name;
      values[`:v${index}`] = value;
      return [`#a${index}`, `:v${index}`] as const;
    });
  return { names, values, pairs };
}

export type ItemChanges = {
  set?: Item;
  /** Numbers added atomically (`ADD`). */
  add?: Record<string, number>;
  /** The update happens only if each of these attributes has exactly this value. */
  expected?: Item;
};

/** Items of one partition, in sort key order, on the table or one of its secondary indexes. */
export type PartitionQuery = {
  partition: string;
  index?: SecondaryIndex | undefined;
  /** Only items whose sort key is greater. */
  afterSortKey?: string;
  /** At most this many items; every item of the partition when absent. */
  limit?: number;
};

export type TableClient = ReturnType<typeof createTableClient>;

export function createTableClient({
  tableName,
  documentClient,
}: {
  tableName: string;
  documentClient: DynamoDBDocumentClient;
}) {
  /** Sends a command, turning an outage into StoreUnavailableError (which the API answers as 503). */
  async function send<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
    }
  }

  /** Sends a conditional write: undefined when its condition did not hold. */
  async function sendConditional<T>(operation: () => Promise<T>): Promise<T | undefined> {
    try {
      return await send(operation);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  return {
    tableName,

    /** Table reads are strongly consistent unless asked otherwise: a client reads its own writes. */
    async get(key: ItemKey, { consistent = true } = {}): Promise<Item | undefined> {
      const command = new GetCommand({ TableName: tableName, Key: key, ConsistentRead: consistent });
      return (await send(() => documentClient.send(command))).Item;
    },

    /**
     * Writes an item that must never replace another: false when its key is taken. With
     * `orExpired`, an item whose TTL has passed counts as absent (DynamoDB deletes expired items
     * lazily, dynalite never).
     */
    async putIfAbsent(item: Item, { orExpired = false } = {}): Promise<boolean> {
      const command = new PutCommand({
        TableName: tableName,
        Item: item,
        ConditionExpression: orExpired ? `${IF_ABSENT} OR #expiresAt < :now` : IF_ABSENT,
        ...(orExpired && {
          ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
        }),
      });
      return (await sendConditional(() => documentClient.send(command))) !== undefined;
    },

    /** Changes one item; its updated attributes, or undefined when `expected` did not hold. */
    async update(
      key: ItemKey,
      { set = {}, add = {}, expected = {} }: ItemChanges,
    ): Promise<Item | undefined> {
      const { names, values, pairs } = placeholders();
      const sets = pairs(set).map(([name, value]) => `${name} = ${value}`);
      const adds = pairs(add).map(([name, value]) => `${name} ${value}`);
      const conditions = pairs(expected).map(([name, value]) => `${name} = ${value}`);
      const command = new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: [
          sets.length > 0 && `SET ${sets.join(', ')}`,
          adds.length > 0 && `ADD ${adds.join(', ')}`,
        ]
          .filter(Boolean)
          .join(' '),
        ...(conditions.length > 0 && { ConditionExpression: conditions.join(' AND ') }),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
      });
      const output = await sendConditional(() => documentClient.send(command));
      return output && (output.Attributes ?? {});
    },

    /** One Query in practice: the loop only follows DynamoDB's 1 MB page cut. */
    async query({ partition, index, afterSortKey, limit }: PartitionQuery): Promise<Item[]> {
      const { partitionKey, sortKey } = index ?? TABLE_KEY;
      const items: Item[] = [];
      let startKey: Item | undefined;
      do {
        const command = new QueryCommand({
          TableName: tableName,
          // A global secondary index can only be read eventually consistent.
          ...(index ? { IndexName: index.name } : { ConsistentRead: true }),
          KeyConditionExpression:
            afterSortKey === undefined
              ? '#partition = :partition'
              : '#partition = :partition AND #sort > :after',
          ExpressionAttributeNames: {
            '#partition': partitionKey,
            ...(afterSortKey !== undefined && { '#sort': sortKey }),
          },
          ExpressionAttributeValues: {
            ':partition': partition,
            ...(afterSortKey !== undefined && { ':after': afterSortKey }),
          },
          ...(limit !== undefined && { Limit: limit - items.length }),
          ExclusiveStartKey: startKey,
        });
        const page = await send(() => documentClient.send(command));
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey && (limit === undefined || items.length < limit));
      return items;
    },
  };
}
