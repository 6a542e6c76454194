// listAllPets against the local server over real HTTP: a walk of several pages yields every animal
// once and asks each page once, even when the server's pages (altered through the client's `fetch`
// option) repeat an animal or a cursor; an error answer throws PetStoreError with its typed body.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPetStoreClient, listAllPets, nextCursor, PetStoreError } from '#client/src/index.ts';
import type { ListPetsQuery, Pet, PetStoreClient, PetStoreClientOptions } from '#client/src/index.ts';
import { startTestServer } from '#test/support/http.ts';
import { answer, scriptedFetch, send } from '#test/client/scripted-fetch.ts';
import type { Step } from '#test/client/scripted-fetch.ts';

const PENDING = 7;
const PAGE = { status: 'pending', limit: 3 } as const;

let server: Awaited<ReturnType<typeof startTestServer>>;
let options: PetStoreClientOptions;
/** The pending animals, in the order listPets gives them (by id). */
let pending: Pet[];

beforeAll(async () => {
  server = await startTestServer();
  options = { baseUrl: `${server.url}/v1`, apiKey: server.apiKey, retries: { baseDelayMs: 1 } };
  const petstore = createPetStoreClient(options);
  const add = (name: string, status: Pet['status']) =>
    petstore.POST('/pets', { body: { name, categoryId: 1, status } }).then(({ data }) => {
      assert(data);
      return data;
    });
  await Promise.all(['Sold 1', 'Sold 2'].map((name) => add(name, 'sold')));
  const names = Array.from({ length: PENDING }, (_, n) => `Pending ${n + 1}`);
  pending = (await Promise.all(names.map((name) => add(name, 'pending')))).sort((a, b) => a.id - b.id);
});
afterAll(() => server.close());

function scripted(steps: Step[]) {
  const { fetch, sent } = scriptedFetch(steps);
  return { petstore: createPetStoreClient({ ...options, fetch }), sent };
}

async function walk(petstore: PetStoreClient, query: ListPetsQuery): Promise<Pet[]> {
  const pets = [];
  for await (const pet of listAllPets(petstore, query)) pets.push(pet);
  return pets;
}

/** The server's page, its JSON and headers changed by `change`. */
const altered =
  (change: (pets: unknown[], headers: Headers, request: Request) => unknown[]): Step =>
  async (request, attempt) => {
    const response = await send(request, attempt);
    const headers = new Headers(response.headers);
    headers.delete('Content-Length');
    const pets = change(JSON.parse(await response.text()), headers, request);
    return new Response(JSON.stringify(pets), { status: response.status, headers });
  };

describe('listAllPets', () => {
  it('yields every animal of every page once, asking each page once', async () => {
    const { petstore, sent } = scripted([]);
    expect(await walk(petstore, PAGE)).toEqual(pending);
    const paths = sent.map(({ path }) => path);
    expect(paths).toHaveLength(Math.ceil(PENDING / PAGE.limit));
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths[0]).toBe('/v1/pets?status=pending&limit=3');
  });

  it('starts at the cursor it is given', async () => {
    const petstore = createPetStoreClient(options);
    const cursor = nextCursor((await petstore.GET('/pets', { params: { query: PAGE } })).response);
    expect(cursor).toEqual(expect.any(String));
    expect(await walk(petstore, { ...PAGE, cursor })).toEqual(pending.slice(PAGE.limit));
  });

  it('yields an animal that two pages hold once', async () => {
    let firstPage: unknown[] = [];
    const remember = altered((pets) => (firstPage = pets));
    const repeat = altered((pets) => [...firstPage, ...pets]);
    const { petstore, sent } = scripted([remember, repeat]);
    expect(await walk(petstore, PAGE)).toEqual(pending);
    expect(sent).toHaveLength(3);
  });

  it('throws, rather than ask a page again, when a Link names a cursor already asked for', async () => {
    const linkToItself = altered((pets, headers, request) => {
      const { pathname, search } = new URL(request.url);
      headers.set('Link', `<${pathname}${search}>; rel="next"`);
      return pets;
    });
    const { petstore, sent } = scripted([send, linkToItself]);
    const seen: Pet[] = [];
    const walking = (async () => {
      for await (const pet of listAllPets(petstore, PAGE)) seen.push(pet);
    })();
    await expect(walking).rejects.toThrow(/^listPets' Link names the cursor \S+ again/);
    expect(seen).toEqual(pending.slice(0, 2 * PAGE.limit));
    expect(sent).toHaveLength(2);
  });

  it('asks no further page once the loop stops', async () => {
    const { petstore, sent } = scripted([]);
    for await (const pet of listAllPets(petstore, PAGE)) {
      expect(pet).toEqual(pending[0]);
      break;
    }
    expect(sent).toHaveLength(1);
  });

  it('asks a page answered 503 again and goes on', async () => {
    const { petstore, sent } = scripted([send, answer(503, { 'Retry-After': '0' })]);
    expect(await walk(petstore, PAGE)).toEqual(pending);
    expect(sent.map(({ path }) => path)).toEqual([
      sent[0]?.path,
      sent[1]?.path,
      sent[1]?.path,
      expect.stringContaining('cursor='),
    ]);
  });
});

describe('an error answer to listAllPets', () => {
  it('throws a PetStoreError with the typed body and the Response', async () => {
    const petstore = createPetStoreClient(options);
    const error = await walk(petstore, { cursor: 'not-a-cursor' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PetStoreError);
    const { body, response, status, message, name } = error as PetStoreError;
    expect(body).toEqual({ code: 'validation_error', message: expect.any(String), status: 400 });
    expect(response.status).toBe(400);
    expect(status).toBe(400);
    expect(name).toBe('PetStoreError');
    expect(message).toBe(`validation_error (400): ${body?.message}`);
  });

  it('throws a PetStoreError for an unknown API key: 401', async () => {
    const stranger = createPetStoreClient({ ...options, apiKey: 'psk_unknown' });
    await expect(walk(stranger, PAGE)).rejects.toMatchObject({
      status: 401,
      body: { code: 'unauthorized', status: 401 },
    });
  });

  it('throws a PetStoreError without a body for an answer that has none of the API', async () => {
    const proxyPage: Step = async () => new Response('<html>Bad gateway</html>', { status: 502 });
    const { fetch } = scriptedFetch([proxyPage]);
    const petstore = createPetStoreClient({ ...options, fetch, retries: 0 });
    await expect(walk(petstore, PAGE)).rejects.toMatchObject({
      status: 502,
      body: undefined,
      message: 'The API answered 502 without its error body',
    });
  });
});
