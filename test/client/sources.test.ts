// The typed client's sources against the local server: the usage example of its README runs as
// written, int64 values survive the round trip, and every response it gets matches openapi.json.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPetStoreClient } from '#client/src/index.ts';
import type { PetStoreClientOptions } from '#client/src/index.ts';
import { petStoreTour } from '#client/example.ts';
import { contractCheckedFetch } from '#test/client/scripted-fetch.ts';
import { startTestServer } from '#test/support/http.ts';
import { readRepoFile } from '#test/support/repository.ts';

let server: Awaited<ReturnType<typeof startTestServer>>;
let options: PetStoreClientOptions;

beforeAll(async () => {
  server = await startTestServer();
  options = { baseUrl: `${server.url}/v1`, apiKey: server.apiKey, fetch: contractCheckedFetch };
});
afterAll(() => server.close());

describe('the typed client', () => {
  it('runs the usage example of its README: create, list by status, a typed error', async () => {
    const { rex, location, available, problem } = await petStoreTour(options);
    expect(rex).toEqual({
      id: expect.any(Number),
      name: 'Rex',
      categoryId: 9223372036854775807n,
      status: 'available',
    });
    expect(location).toBe(`/v1/pets/${rex.id}`);
    expect(available).toContainEqual(rex);
    expect(problem).toBe('not_found');
  });

  it('is quoted unchanged in the README of the package', () => {
    const example = /\/\/ docs:start\n([\s\S]*?)\n\s*\/\/ docs:end/.exec(
      readRepoFile('client/example.ts'),
    )?.[1];
    const dedented = example?.replace(/^ {2}/gm, '');
    expect(dedented).toBeDefined();
    expect(readRepoFile('client/README.md')).toContain(dedented);
  });

  it('gets an animal, replays an idempotent create and filters by status', async () => {
    const petstore = createPetStoreClient(options);
    const body = { name: 'Tom', categoryId: 2n ** 53n + 1n, status: 'sold' } as const;
    const params = { header: { 'Idempotency-Key': 'add-tom' } };
    const first = await petstore.POST('/pets', { params, body });
    const replay = await petstore.POST('/pets', { params, body });
    expect(replay.data).toEqual(first.data);
    expect(replay.response.headers.get('Idempotent-Replayed')).toBe('true');

    const tom = first.data;
    assert(tom);
    const got = await petstore.GET('/pets/{petId}', { params: { path: { petId: tom.id } } });
    expect(got.data).toEqual({ ...tom, categoryId: 9007199254740993n });
    expect(got.response.headers.get('Deprecation')).toBe('@1767225600');

    const sold = await petstore.GET('/pets', { params: { query: { status: 'sold' } } });
    expect(sold.data).toEqual([tom]);
  });

  it('answers invalid input with a typed validation error', async () => {
    const petstore = createPetStoreClient(options);
    const { data, error } = await petstore.POST('/pets', { body: { name: ' ', categoryId: 0 } });
    expect(data).toBeUndefined();
    expect(error).toEqual({
      code: 'validation_error',
      message: expect.stringMatching(/name: .*categoryId: /),
      status: 400,
    });
  });

  it('sends the API key, and without a valid one gets 401', async () => {
    const stranger = createPetStoreClient({ ...options, apiKey: 'psk_unknown' });
    const { error, response } = await stranger.GET('/pets');
    expect(response.status).toBe(401);
    expect(error?.code).toBe('unauthorized');
  });
});
