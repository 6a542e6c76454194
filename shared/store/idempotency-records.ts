// Idempotency records on the single table, one per (API key, Idempotency-Key). A record is
// claimed IN_PROGRESS with the pet id it will use, and completed with the pet it produced. Every
// step is one conditional write, so two requests can never both own a record.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Pet } from '#shared/schemas.ts';
import { documentClient, send, sendConditional, tableName } from '#shared/store/dynamodb.ts';
import { toPet } from '#shared/store/pet-item.ts';
import type { idempotencyKey } from '#shared/store/table.ts';
import { IF_ABSENT, TTL_ATTRIBUTE } from '#shared/store/table.ts';

export const RECORD_TTL_SECONDS = 24 * 60 * 60;

export type IdempotencyRecord = {
  fingerprint: string;
  petId: number;
  lockedUntil: number;
  pet?: Pet;
};

type RecordKey = ReturnType<typeof idempotencyKey>;

/** Claims the key for a new request; false when a live record already holds it. */
export function claim(
  key: RecordKey,
  record: Omit<IdempotencyRecord, 'pet'>,
  now = Date.now(),
): Promise<boolean> {
  return sendConditional(() =>
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...key,
          type: 'idempotency',
          ...record,
          [TTL_ATTRIBUTE]: Math.floor(now / 1000) + RECORD_TTL_SECONDS,
        },
        // DynamoDB deletes expired items lazily (and dynalite never): an expired record is free.
        ConditionExpression: `${IF_ABSENT} OR #expiresAt < :now`,
        ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
      }),
    ),
  );
}

export async function read(key: RecordKey): Promise<IdempotencyRecord | undefined> {
  const now = Date.now();
  const { Item } = await send(() =>
    documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true })),
  );
  if (!Item || Item[TTL_ATTRIBUTE] < Math.floor(now / 1000)) return undefined;
  const { fingerprint, petId, lockedUntil, pet } = Item;
  return {
    fingerprint,
    petId: Number(petId),
    lockedUntil: Number(lockedUntil),
    ...(pet && { pet: toPet(pet) }),
  };
}

/** Moves the in-flight lock, only if nobody moved it since `seenLockedUntil` was read. */
export function relock(key: RecordKey, seenLockedUntil: number, lockedUntil: number): Promise<boolean> {
  return sendConditional(() =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET lockedUntil = :new',
        ConditionExpression: 'lockedUntil = :seen AND attribute_not_exists(pet)',
        ExpressionAttributeValues: { ':new': lockedUntil, ':seen': seenLockedUntil },
      }),
    ),
  );
}

export async function complete(key: RecordKey, pet: Pet): Promise<void> {
  await send(() =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET pet = :pet, lockedUntil = :done',
        ExpressionAttributeValues: { ':pet': pet, ':done': 0 },
      }),
    ),
  );
}
