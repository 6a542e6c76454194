// Pets spread over shards by id range: the keys the store writes (read back from the test DynamoDB)
// spread the pets evenly, through the first counter and then the spread ones, and a list
// walks the shards in order, each pet once, in id order, with one Query a page and a second only where
// a page crosses into the next shard: from a listPets instance's first page, once ids fill every shard.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { PET_STATUSES } from '#shared/schemas.ts';
import type { PetStatus } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { PET_ID_COUNTERS, SPREAD_FIRST_ROUND, idBlock, spreadIdBlock } from '#shared/store/id-allocator.ts';
import type { PagePosition, PetPageRequest, PetStore } from '#shared/store/pet-store.ts';
import {
  MAX_PET_SHARDS,
  PET_SHARDS,
  SHARD_ID_SPAN,
  STATUS_INDEX,
  TABLE_KEY,
  petShardOf,
} from '#shared/store/table.ts';
import { startRecorder } from '../../../bench/dynamodb/recorder.ts';
import type { Recorder } from '../../../bench/dynamodb/recorder.ts';

/** Two blocks a shard: the first counter's round, then the spread counters'. */
const PETS = 2 * PET_SHARDS * 50;
const LIMIT = 20;
/** Concurrent Lambda instances, each with its own lease of ids. */
const INSTANCES = 4;

let recorder: Recorder;
let local: LocalDynamoDb;
let store: PetStore;
const writtenKeys: { table: string; index: string; status: PetStatus }[] = [];

beforeAll(async () => {
  recorder = await startRecorder(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '');
  local = await openLocalDynamoDb({ endpoint: recorder.endpoint, tableName: `shards-${randomUUID()}` });
  // Written straight to the table, not through the recorder, whose reads around each write would
  // triple the requests; the keys are read back from the table below.
  const direct = await openLocalDynamoDb({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
    tableName: local.tableName,
  });
  // The spread counters in turn: the even spread that many instances picking at random make over time.
  let picks = 0;
  const pickCounter = () => ((picks++ % PET_ID_COUNTERS) + 0.5) / PET_ID_COUNTERS;
  const instances = Array.from({ length: INSTANCES }, () =>
    createDynamoDbPetStore(direct.table, { pickCounter }),
  );
  store = createDynamoDbPetStore(local.table, { pickCounter });
  // The instances side by side, each creating one pet at a time, as concurrent Lambda instances do.
  await Promise.all(
    instances.map(async (instance, lane) => {
      for (let index = lane; index < PETS; index += INSTANCES) {
        const status = PET_STATUSES[index % PET_STATUSES.length] ?? 'available';
        await instance.insert({
          id: await instance.reserveId(),
          name: `Pet ${index}`,
          categoryId: 1n,
          status,
        });
      }
    }),
  );
  writtenKeys.push(...(await petKeys(direct.endpoint, local.tableName)));
  await direct.close();
}, 120_000);
afterAll(async () => {
  await local.close();
  await recorder.close();
});

/** The table and index partition keys of every pet in the table, with its status. */
async function petKeys(endpoint: string, tableName: string) {
  const client = new DynamoDBClient({ endpoint });
  const keys: typeof writtenKeys = [];
  for await (const page of paginateScan({ client }, { TableName: tableName }))
    for (const item of page.Items ?? []) {
      const status = item.status?.S as PetStatus | undefined;
      const index = item[STATUS_INDEX.partitionKey]?.S;
      // Only pets carry a status and an index key; the id counters carry neither.
      if (status && index) keys.push({ table: item[TABLE_KEY.partitionKey]?.S ?? '', index, status });
    }
  client.destroy();
  return keys;
}

const countBy = (keys: string[]) =>
  keys.reduce((counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1), new Map<string, number>());

describe(`${PETS} pets over ${PET_SHARDS} shards`, () => {
  test(`no partition key of the table holds more than 2/${PET_SHARDS} of them`, () => {
    const counts = countBy(writtenKeys.map((key) => key.table));
    expect(counts.size).toBe(PET_SHARDS);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual((2 / PET_SHARDS) * PETS);
  });

  test.each(PET_STATUSES)(
    `no key of the status index holds more than 2/${PET_SHARDS} of the %s pets`,
    (status) => {
      const ofStatus = writtenKeys.filter((key) => key.status === status);
      const counts = countBy(ofStatus.map((key) => key.index));
      expect([...counts.keys()].every((key) => key.startsWith(`STATUS#${status}#`))).toBe(true);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual((2 / PET_SHARDS) * ofStatus.length);
    },
  );
});

describe('a walk over every page', () => {
  /** Every page of one listing, with the DynamoDB Queries each made. */
  async function walk(request: Omit<PetPageRequest, 'after'>) {
    const pages: { ids: number[]; queries: number }[] = [];
    let after: PagePosition | undefined;
    do {
      recorder.take();
      const page = await store.list({ ...request, after });
      pages.push({ ids: page.pets.map((pet) => pet.id), queries: recorder.take().length });
      after = page.next;
    } while (after);
    return pages;
  }

  test.each([undefined, ...PET_STATUSES])(
    'status %s: each pet once, in id order, the same twice',
    async (status) => {
      const pages = await walk({ limit: LIMIT, filter: { status } });
      const ids = pages.flatMap((page) => page.ids);
      const expected = writtenKeys.filter((key) => !status || key.status === status).length;
      expect(ids).toHaveLength(expected);
      expect(new Set(ids).size).toBe(expected);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(pages.slice(0, -1).every((page) => page.ids.length === LIMIT)).toBe(true);
      expect(await walk({ limit: LIMIT, filter: { status } })).toEqual(pages);
    },
  );

  test('from a fresh instance too: two requests a page at most, and never the id counter', async () => {
    const fresh = createDynamoDbPetStore(local.table);
    let after: PagePosition | undefined;
    const requests: string[][] = [];
    do {
      recorder.take();
      after = (await fresh.list({ limit: LIMIT, after })).next;
      requests.push(recorder.take().map((entry) => entry.operation));
    } while (after);
    expect(Math.max(...requests.map((page) => page.length))).toBe(2);
    expect(requests.flat().every((operation) => operation === 'Query')).toBe(true);
  });

  test('one Query a page, a second only where the page or its look-ahead reaches the next shard', async () => {
    const pages = await walk({ limit: LIMIT });
    const queries = pages.map((page) => page.queries);
    expect(Math.max(...queries)).toBe(2);
    expect(queries.filter((count) => count === 2).length).toBeLessThanOrEqual(PET_SHARDS - 1);
    const crossing = pages.filter((page) => new Set(page.ids.map(petShardOf)).size > 1);
    expect(crossing.length).toBeGreaterThan(0);
    expect(crossing.every((page) => page.queries === 2)).toBe(true);
  });
});

describe('a table whose ids have not gone round the shards yet', () => {
  test('a page reads the shards that have pets, and the id counter to know which those are', async () => {
    // The first page learns from the counter that the catalogue ends early; the next asks it first.
    const fresh = await openLocalDynamoDb({ endpoint: recorder.endpoint, tableName: `few-${randomUUID()}` });
    const few = createDynamoDbPetStore(fresh.table);
    const reader = createDynamoDbPetStore(fresh.table);
    recorder.take();
    expect((await reader.list({ limit: LIMIT })).pets).toEqual([]);
    expect(recorder.take().map((entry) => entry.operation)).toEqual(['Query', 'GetItem']);

    for (const name of ['Ada', 'Bo', 'Cy'])
      await few.insert({ id: await few.reserveId(), name, categoryId: 1n, status: 'available' });
    recorder.take();
    expect((await reader.list({ limit: LIMIT })).pets.map((pet) => pet.name)).toEqual(['Ada', 'Bo', 'Cy']);
    expect(recorder.take().map((entry) => entry.operation)).toEqual(['GetItem', 'Query']);
    await fresh.close();
  });
});

describe('id blocks', () => {
  test('go round the shards, each shard counting up from its own first id', () => {
    expect(idBlock(0, 16)).toEqual({ first: 1, last: 50 });
    expect(idBlock(1, 16)).toEqual({ first: SHARD_ID_SPAN + 1, last: SHARD_ID_SPAN + 50 });
    expect(idBlock(16, 16)).toEqual({ first: 51, last: 100 });
    expect(petShardOf(idBlock(35, 16).last)).toBe(3);
  });

  test('from the spread counters: every shard in turn, in rounds the first counter never reaches', () => {
    const blocks = Array.from({ length: PET_ID_COUNTERS }, (_, counter) =>
      Array.from({ length: 32 }, (_, lease) => spreadIdBlock(counter, lease + 1, 32)),
    );
    // Each counter alone goes round all 32 shards (7 and 32 share no factor).
    for (const own of blocks) expect(new Set(own.map((block) => petShardOf(block.first))).size).toBe(32);
    const firsts = blocks.flat().map((block) => block.first);
    expect(new Set(firsts).size).toBe(firsts.length);
    expect(Math.min(...firsts.map((first) => first % SHARD_ID_SPAN))).toBe(SPREAD_FIRST_ROUND * 50 + 1);
    expect(spreadIdBlock(0, 1, 32)).toEqual({
      first: SPREAD_FIRST_ROUND * 50 + 1,
      last: SPREAD_FIRST_ROUND * 50 + 50,
    });
  });

  test('end where a shard or the id space does', () => {
    const lastRound = Math.floor(SHARD_ID_SPAN / 50) - 1;
    expect(() => idBlock(lastRound * 16 + 2, 16)).not.toThrow();
    expect(() => idBlock((lastRound + 1) * 16 + 2, 16)).toThrow('Pet id space exhausted');
    expect(petShardOf(Number.MAX_SAFE_INTEGER)).toBe(MAX_PET_SHARDS - 1);
  });
});
