// createPet's handler with the Idempotency-Key, over this file's table in the test DynamoDB: replays,
// conflicts, and requests that died half-way, their leftovers written as the function writes them.
import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { RECORD_TTL_SECONDS, createIdempotencyRecords } from '#shared/store/idempotency-records.ts';
import { IN_FLIGHT_MS } from '#shared/timeouts.ts';
import { idempotencyItemKey } from '#shared/store/table.ts';
import { AUTHORIZED, createPetRequest, invoke, listPetsRequest } from '#local/api-gateway/proxy-requests.ts';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import {
  TEST_CURSOR_SECRET,
  quietObservability,
  testFunctions,
  testTable,
} from '#test/support/test-table.ts';

const { createPet, listPets } = testFunctions;
// What a request that died half-way left behind, written as the function writes it.
const petStore = createDynamoDbPetStore(testTable);
const { claim, read } = createIdempotencyRecords(testTable);

let counter = 0;
const freshKey = () => `key-${++counter}-${Date.now()}`;
const post = (body: unknown, key?: string, principalId = AUTHORIZED.principalId) => {
  const request = createPetRequest(body, { headers: key === undefined ? [] : [['Idempotency-Key', key]] });
  return invoke(createPet, { ...request, authorizer: { principalId, apiKeyId: principalId } });
};
const allPets = async () => (await invoke(listPets, listPetsRequest('limit=100'))).json as Pet[];
const recordKeyOf = (key: string, scope = AUTHORIZED.principalId) =>
  idempotencyItemKey(scope, createHash('sha256').update(key).digest('hex'));

describe('Idempotency-Key on createPet', () => {
  it('replays the same Animal for the same key and body, creating nothing', async () => {
    const key = freshKey();
    const first = await post('{"name":"Once","categoryId":9223372036854775807,"status":"sold"}', key);
    expect(first.status).toBe(201);
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    const before = await allPets();
    const again = await post('{ "status":"sold", "categoryId": 9223372036854775807, "name":"Once" }', key);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.headers.Location).toBe(first.headers.Location);
    expect(await allPets()).toEqual(before);
  });

  it('answers 422 idempotency_conflict for the same key with another body, creating nothing', async () => {
    const key = freshKey();
    expect((await post({ name: 'First', categoryId: 1 }, key)).status).toBe(201);
    const before = await allPets();
    const other = await post({ name: 'Second', categoryId: 1 }, key);
    expect(other.json).toEqual({ code: 'idempotency_conflict', message: expect.any(String), status: 422 });
    expect(await allPets()).toEqual(before);
  });

  it('scopes keys to the calling API key', async () => {
    const key = freshKey();
    const mine = await post({ name: 'Mine', categoryId: 1 }, key, 'key_a');
    const theirs = await post({ name: 'Mine', categoryId: 1 }, key, 'key_b');
    expect((theirs.json as Pet).id).not.toBe((mine.json as Pet).id);
    expect(theirs.headers['Idempotent-Replayed']).toBeUndefined();
  });

  it('answers 409 while the first request with the key is still in flight', async () => {
    const key = freshKey();
    const body = { name: 'Busy', categoryId: 1 };
    const fingerprint = createHash('sha256').update('{"categoryId":1,"name":"Busy"}').digest('hex');
    await claim(recordKeyOf(key), {
      fingerprint,
      petId: await petStore.reserveId(),
      lockedUntil: Date.now() + IN_FLIGHT_MS,
    });
    const before = await allPets();
    const response = await post(body, key);
    expect(response.json).toEqual({ code: 'idempotency_conflict', message: expect.any(String), status: 409 });
    expect(await allPets()).toEqual(before);
  });

  it('finishes a request that died before writing the pet, with the id it had claimed', async () => {
    const key = freshKey();
    const fingerprint = createHash('sha256').update('{"categoryId":1,"name":"Phoenix"}').digest('hex');
    const petId = await petStore.reserveId();
    await claim(recordKeyOf(key), { fingerprint, petId, lockedUntil: Date.now() - 1 });
    const response = await post({ name: 'Phoenix', categoryId: 1 }, key);
    expect(response.status).toBe(201);
    expect((response.json as Pet).id).toBe(petId);
    expect(await read(recordKeyOf(key))).toMatchObject({ status: 'completed' });
    expect(((await read(recordKeyOf(key))) as { pet: Pet }).pet).toEqual({
      id: petId,
      name: 'Phoenix',
      categoryId: 1n,
      status: 'available',
    });
  });

  it('finishes a request that died after writing the pet without creating a second one', async () => {
    const key = freshKey();
    const fingerprint = createHash('sha256').update('{"categoryId":1,"name":"Twice"}').digest('hex');
    const pet = {
      id: await petStore.reserveId(),
      name: 'Twice',
      categoryId: 1n,
      status: 'available' as const,
    };
    expect(await petStore.insert(pet)).toEqual({ inserted: true });
    await claim(recordKeyOf(key), { fingerprint, petId: pet.id, lockedUntil: Date.now() - 1 });
    const before = await allPets();
    const response = await post({ name: 'Twice', categoryId: 1 }, key);
    expect((response.json as Pet).id).toBe(pet.id);
    expect(await allPets()).toEqual(before);
  });

  it('treats a record older than 24 hours as free', async () => {
    const key = freshKey();
    const longAgo = Date.now() - (RECORD_TTL_SECONDS + 60) * 1000;
    await claim(
      recordKeyOf(key),
      { fingerprint: 'other body', petId: await petStore.reserveId(), lockedUntil: 0 },
      longAgo,
    );
    const response = await post({ name: 'Fresh', categoryId: 1 }, key);
    expect(response.status).toBe(201);
    expect(response.headers['Idempotent-Replayed']).toBeUndefined();
  });

  it('creates exactly one pet from 10 parallel requests with one key', async () => {
    const key = freshKey();
    const before = (await allPets()).length;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post({ name: 'Crowd', categoryId: 1 }, key)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const ids = new Set(
      responses.filter((response) => response.status === 201).map((response) => (response.json as Pet).id),
    );
    expect(ids.size).toBe(1);
    expect((await allPets()).length).toBe(before + 1);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'my key'],
    ['not ASCII', 'clé'],
  ])('rejects an Idempotency-Key that is %s with 400, creating nothing', async (_case, key) => {
    const before = await allPets();
    const response = await post({ name: 'Nope', categoryId: 1 }, key);
    expect(response.json).toMatchObject({ code: 'validation_error', status: 400 });
    expect((response.json as { message: string }).message).toMatch(/^Idempotency-Key: /);
    expect(await allPets()).toEqual(before);
  });

  it('accepts a key of 255 visible characters', async () => {
    expect((await post({ name: 'Long key', categoryId: 1 }, '~'.repeat(255))).status).toBe(201);
  });

  it('uses up no pet id on a replay, a 422 or a 409: the next create gets the next id', async () => {
    // A createPet instance of its own, whose ids all come from the one block it leases first.
    const instance = createSourceFunctions({
      table: testTable,
      cursorSecret: TEST_CURSOR_SECRET,
      observability: quietObservability(),
    });
    const send = (name: string, key?: string) =>
      invoke(instance.createPet, {
        ...createPetRequest(
          { name, categoryId: 1 },
          { headers: key === undefined ? [] : [['Idempotency-Key', key]] },
        ),
        authorizer: { principalId: AUTHORIZED.principalId, apiKeyId: AUTHORIZED.principalId },
      });
    const first = (await send('Counted')).json as Pet;
    const key = freshKey();
    const keyed = (await send('Keyed', key)).json as Pet;
    expect(keyed.id).toBe(first.id + 1);
    for (let replay = 0; replay < 3; replay++) expect((await send('Keyed', key)).json).toEqual(keyed);
    expect((await send('Another body', key)).status).toBe(422);
    const busy = freshKey();
    const fingerprint = createHash('sha256').update('{"categoryId":1,"name":"Busy"}').digest('hex');
    await claim(recordKeyOf(busy), { fingerprint, petId: 0, lockedUntil: Date.now() + IN_FLIGHT_MS });
    expect((await send('Busy', busy)).status).toBe(409);
    expect(((await send('Next')).json as Pet).id).toBe(keyed.id + 1);
  });

  it('does not use up a key on a rejected request', async () => {
    const key = freshKey();
    expect((await post({ name: '', categoryId: 1 }, key)).status).toBe(400);
    const accepted = await post({ name: 'Second try', categoryId: 1 }, key);
    expect(accepted.status).toBe(201);
    expect(accepted.headers['Idempotent-Replayed']).toBeUndefined();
  });
});
