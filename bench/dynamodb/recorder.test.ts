// The recorder in front of the test DynamoDB: what it records for the store's real requests (keys,
// index writes, failed conditions), and its units checked against the ConsumedCapacity the
// DynamoDB implementation itself reports for the table.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { openLocalDynamoDb } from '../../local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '../../local/dynamodb/connect.ts';
import { createDynamoDbPetStore } from '../../shared/store/dynamodb-pet-store.ts';
import { createIdempotencyRecords } from '../../shared/store/idempotency-records.ts';
import { STATUS_INDEX, idempotencyItemKey } from '../../shared/store/table.ts';
import { startRecorder } from '#bench/dynamodb/recorder.ts';
import type { Recorder } from '#bench/dynamodb/recorder.ts';
import { chargesOf } from '#bench/dynamodb/capacity-units.ts';

let recorder: Recorder;
let local: LocalDynamoDb;
beforeAll(async () => {
  recorder = await startRecorder(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '');
  local = await openLocalDynamoDb({ endpoint: recorder.endpoint, tableName: `capacity-${randomUUID()}` });
  recorder.take();
});
afterAll(async () => {
  await local.close();
  await recorder.close();
});

describe("the store's requests, as recorded", () => {
  test('a create writes the pet and its status index entry; a get and a list read their partitions', async () => {
    const pets = createDynamoDbPetStore(local.table);
    const id = await pets.reserveId();
    const counterLease = recorder.take();
    // A new instance asks the first counter whether the table has grown, then leases from it.
    expect(counterLease.map((entry) => entry.operation)).toEqual(['GetItem', 'UpdateItem']);

    await pets.insert({ id, name: 'Rex', categoryId: 9_007_199_254_740_993n, status: 'sold' });
    const [insert, ...more] = recorder.take();
    expect(more).toEqual([]);
    expect(insert?.write).toEqual({ before: 0, after: expect.any(Number), failed: false });
    expect(insert?.indexWrites).toEqual([
      {
        index: STATUS_INDEX.name,
        partition: expect.stringMatching(/^STATUS#sold/),
        bytes: insert?.write?.after,
      },
    ]);

    await pets.get(BigInt(id));
    await pets.list({ limit: 5, filter: { status: 'sold' } });
    const [get, query] = recorder.take();
    // A pet once written reads eventually consistent: it never changes.
    expect(get).toMatchObject({ operation: 'GetItem', partition: insert?.partition, consistent: false });
    expect(get?.itemBytes).toEqual([insert?.write?.after]);
    expect(query).toMatchObject({ operation: 'Query', index: STATUS_INDEX.name, consistent: false });
  });

  test('a claim of a live idempotency record is a failed conditional write, charged all the same', async () => {
    const records = createIdempotencyRecords(local.table);
    const key = idempotencyItemKey('key_recorder', randomUUID());
    const claim = { fingerprint: 'f', petId: 7, lockedUntil: Date.now() + 60_000 };
    expect(await records.claim(key, claim)).toBe(true);
    expect(await records.claim(key, claim)).toBe(false);
    const [first, second] = recorder.take();
    expect(first?.write).toMatchObject({ before: 0, failed: false });
    expect(second?.write).toMatchObject({ before: first?.write?.after, failed: true });
    expect(second && chargesOf(second)).toEqual([
      { partition: first?.partition, readUnits: 0, writeUnits: 1 },
    ]);
  });
});

describe("units against the DynamoDB implementation's own ConsumedCapacity", () => {
  const client = () =>
    new DynamoDBClient({
      endpoint: recorder.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

  test.each([
    ['a small item', 10],
    ['an item just over 1 KB', 1_100],
    ['an item over 4 KB', 5_000],
  ])('%s: its put, get (both consistencies) and query', async (_, padding) => {
    const dynamoDb = client();
    const partition = `CAPACITY#${randomUUID()}`;
    const item = { pk: { S: partition }, sk: { S: 'a' }, padding: { S: 'x'.repeat(padding) } };
    const TableName = local.tableName;
    const reported = [
      (await dynamoDb.send(new PutItemCommand({ TableName, Item: item, ReturnConsumedCapacity: 'TOTAL' })))
        .ConsumedCapacity,
      ...(await Promise.all(
        [true, false].map(
          async (consistent) =>
            (
              await dynamoDb.send(
                new GetItemCommand({
                  TableName,
                  Key: { pk: item.pk, sk: item.sk },
                  ConsistentRead: consistent,
                  ReturnConsumedCapacity: 'TOTAL',
                }),
              )
            ).ConsumedCapacity,
        ),
      )),
      (
        await dynamoDb.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': item.pk },
            ConsistentRead: true,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        )
      ).ConsumedCapacity,
    ].map((capacity) => capacity?.CapacityUnits);
    dynamoDb.destroy();
    const recorded = recorder
      .take()
      .sort((a, b) => a.operation.localeCompare(b.operation) || Number(b.consistent) - Number(a.consistent))
      .map((entry) => chargesOf(entry)[0]);
    // Sorted: GetItem consistent, GetItem eventual, PutItem, Query.
    const [consistentGet, eventualGet, put, query] = recorded;
    expect([put?.writeUnits, consistentGet?.readUnits, eventualGet?.readUnits, query?.readUnits]).toEqual(
      reported,
    );
  });
});
