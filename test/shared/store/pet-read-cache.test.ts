// getPet's cache of pets read, on the test DynamoDB behind the recorder: a pet found is read from the
// table once, a pet not found is asked again each time (so a new pet reads at once), and the cache
// keeps no more than its entries, the least recently read leaving first.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { withPetReadCache } from '#shared/store/pet-read-cache.ts';
import type { PetStore } from '#shared/store/pet-store.ts';
import { startRecorder } from '../../../bench/dynamodb/recorder.ts';
import type { Recorder } from '../../../bench/dynamodb/recorder.ts';

let recorder: Recorder;
let local: LocalDynamoDb;
let store: PetStore;

beforeAll(async () => {
  recorder = await startRecorder(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '');
  local = await openLocalDynamoDb({ endpoint: recorder.endpoint, tableName: `read-cache-${randomUUID()}` });
  store = createDynamoDbPetStore(local.table);
});
afterAll(async () => {
  await local.close();
  await recorder.close();
});

const create = async (name: string) => {
  const pet = { id: await store.reserveId(), name, categoryId: 1n, status: 'available' as const };
  await store.insert(pet);
  return BigInt(pet.id);
};
const tableReads = () => recorder.take().filter((entry) => entry.operation === 'GetItem').length;

test('a pet found is read from the table once; its later reads come from memory', async () => {
  const id = await create('Rex');
  const cached = withPetReadCache(store, 10);
  recorder.take();
  const reads = [await cached.get(id), await cached.get(id), await cached.get(id)];
  expect(reads.map((pet) => pet?.name)).toEqual(['Rex', 'Rex', 'Rex']);
  expect(tableReads()).toBe(1);
});

test('an id not found is asked each time, so a pet created meanwhile reads at once', async () => {
  const cached = withPetReadCache(store, 10);
  const next = BigInt(await store.reserveId());
  recorder.take();
  expect(await cached.get(next)).toBeUndefined();
  // Nothing found: an eventually consistent read, then a strongly consistent one.
  expect(tableReads()).toBe(2);
  await store.insert({ id: Number(next), name: 'Newcomer', categoryId: 1n, status: 'pending' });
  recorder.take();
  expect((await cached.get(next))?.name).toBe('Newcomer');
  expect(tableReads()).toBe(1);
});

test('past its entries, the least recently read pet leaves first', async () => {
  const [first, second, third] = [await create('A'), await create('B'), await create('C')];
  const cached = withPetReadCache(store, 2);
  await cached.get(first);
  await cached.get(second);
  await cached.get(first); // `second` is now the least recently read
  await cached.get(third);
  recorder.take();
  await cached.get(first);
  await cached.get(third);
  expect(tableReads()).toBe(0);
  await cached.get(second);
  expect(tableReads()).toBe(1);
});

test('0 entries: no cache, every read goes to the table', async () => {
  const id = await create('Uncached');
  const uncached = withPetReadCache(store, 0);
  recorder.take();
  await uncached.get(id);
  await uncached.get(id);
  expect(tableReads()).toBe(2);
});
