// The client's ETag cache against a scripted API that answers conditional GETs as the API does: what
// it keeps (a GET's 200 with an ETag, not no-store, not an error), how it revalidates, a 304 turned
// back into the kept 200 for client.GET, its bound, and a caller's own If-None-Match left alone.
import { describe, expect, it } from '@jest/globals';
import { createPetStoreClient, nextCursor } from '#client/src/index.ts';
import type { CacheOptions, PetStoreClient } from '#client/src/index.ts';
import { answer, scriptedFetch } from '#test/client/scripted-fetch.ts';
import type { Step } from '#test/client/scripted-fetch.ts';

type Version = { etag?: string; body: string; status?: number; headers?: Record<string, string> };

const REX = { id: 7, name: 'Rex', categoryId: 9223372036854775807n, status: 'available' };
const REX_JSON = '{"id":7,"name":"Rex","categoryId":9223372036854775807,"status":"available"}';
const NEXT = '</v1/pets?status=sold&limit=2&cursor=c2>; rel="next"';

/**
 * The API as its conditional GETs answer: each path's current version, a 304 with the same fields
 * (but the body's type) when If-None-Match names its ETag, and an `X-Answer` numbering the answers.
 */
function conditionalApi(versions: Record<string, Version>): Step {
  return async (request, attempt) => {
    const { pathname, search } = new URL(request.url);
    const version = versions[pathname + search] ?? { body: '', status: 404 };
    const { etag, body, status = 200, headers = {} } = version;
    const fields = { ...(etag && { ETag: etag }), 'Cache-Control': 'private, no-cache', ...headers };
    const numbered = { ...fields, 'X-Answer': String(attempt) };
    if (etag !== undefined && request.headers.get('If-None-Match') === etag) {
      return new Response(null, { status: 304, headers: numbered });
    }
    return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...numbered } });
  };
}

function scripted(versions: Record<string, Version>, cache?: CacheOptions | false, steps: Step[] = []) {
  const { fetch, sent } = scriptedFetch(steps, conditionalApi(versions));
  const petstore = createPetStoreClient({
    baseUrl: 'https://api.example.com/v1',
    apiKey: 'psk_test',
    fetch,
    retries: 0,
    ...(cache !== undefined && { cache }),
  });
  return { petstore, sent, ifNoneMatch: () => sent.map(({ ifNoneMatch }) => ifNoneMatch) };
}

const getPet = (petstore: PetStoreClient, petId: number) =>
  petstore.GET('/pets/{petId}', { params: { path: { petId } } });

const pet = (id: number, etag: string): Record<string, Version> => ({
  [`/v1/pets/${id}`]: { etag, body: JSON.stringify({ id, name: `Pet ${id}`, categoryId: 1 }) },
});

describe('the ETag cache', () => {
  it("revalidates getPet with the kept ETag; a 304 returns the kept animal as data, the 304's fields updated", async () => {
    const versions = {
      '/v1/pets/7': { etag: 'W/"rex-1"', body: REX_JSON, headers: { Deprecation: '@1767225600' } },
    };
    const { petstore, ifNoneMatch } = scripted(versions);
    const first = await getPet(petstore, 7);
    expect(first.data).toEqual(REX);

    for (const answerNumber of ['2', '3']) {
      const { data, error, response } = await getPet(petstore, 7);
      expect({ data, error, status: response.status }).toEqual({ data: REX, error: undefined, status: 200 });
      expect(data?.categoryId).toBe(9223372036854775807n);
      expect(response.headers.get('X-Answer')).toBe(answerNumber);
      expect(response.headers.get('Content-Type')).toBe('application/json');
      expect(response.headers.get('Deprecation')).toBe('@1767225600');
    }
    expect(ifNoneMatch()).toEqual([null, 'W/"rex-1"', 'W/"rex-1"']);
  });

  it('revalidates a list page by its full URL, and its Link still leads to the next page', async () => {
    const page = { etag: 'W/"sold-1"', body: `[${REX_JSON}]`, headers: { Link: NEXT } };
    const { petstore, sent } = scripted({ '/v1/pets?status=sold&limit=2': page });
    const query = { status: 'sold', limit: 2 } as const;
    await petstore.GET('/pets', { params: { query } });
    const { data, error, response } = await petstore.GET('/pets', { params: { query } });
    await petstore.GET('/pets', { params: { query: { ...query, limit: 3 } } });
    expect({ data, error, status: response.status }).toEqual({ data: [REX], error: undefined, status: 200 });
    expect(nextCursor(response)).toBe('c2');
    expect(sent.map(({ path, ifNoneMatch }) => [path, ifNoneMatch])).toEqual([
      ['/v1/pets?status=sold&limit=2', null],
      ['/v1/pets?status=sold&limit=2', 'W/"sold-1"'],
      ['/v1/pets?status=sold&limit=3', null],
    ]);
  });

  it('keeps the new answer when the ETag changed, and revalidates with the new tag', async () => {
    const versions = pet(1, 'W/"one"');
    const { petstore, ifNoneMatch } = scripted(versions);
    await getPet(petstore, 1);
    Object.assign(versions, {
      '/v1/pets/1': { etag: 'W/"two"', body: '{"id":1,"name":"Renamed","categoryId":1}' },
    });
    expect((await getPet(petstore, 1)).data?.name).toBe('Renamed');
    expect((await getPet(petstore, 1)).data?.name).toBe('Renamed');
    expect(ifNoneMatch()).toEqual([null, 'W/"one"', 'W/"two"']);
  });

  it('keeps at most maxEntries answers, the least recently used out first', async () => {
    const { petstore, ifNoneMatch } = scripted(
      { ...pet(1, '"1"'), ...pet(2, '"2"'), ...pet(3, '"3"') },
      { maxEntries: 2 },
    );
    for (const id of [1, 2, 1, 3, 1, 2]) await getPet(petstore, id);
    // 3 pushes out 2, which 1 had just passed; 2 then pushes out 3.
    expect(ifNoneMatch()).toEqual([null, null, '"1"', null, '"1"', null]);
  });

  it.each([
    ['Cache-Control: no-store', { etag: '"1"', body: '{}', headers: { 'Cache-Control': 'no-store' } }],
    [
      'Cache-Control: private, No-Store',
      { etag: '"1"', body: '{}', headers: { 'Cache-Control': 'private, No-Store' } },
    ],
    ['no ETag', { body: '{}' }],
    ['an error with an ETag', { etag: '"1"', body: '{}', status: 404 }],
    ['a 429 with an ETag', { etag: '"1"', body: '{}', status: 429 }],
  ])('keeps no answer with %s', async (_, version) => {
    const { petstore, ifNoneMatch } = scripted({ '/v1/pets/1': version });
    await getPet(petstore, 1);
    await getPet(petstore, 1);
    expect(ifNoneMatch()).toEqual([null, null]);
  });

  it('forgets a kept answer that a 200 without an ETag replaces, but keeps it through an error', async () => {
    const versions: Record<string, Version> = pet(1, '"1"');
    const unavailable = answer(503);
    const { petstore, ifNoneMatch } = scripted(versions, undefined, [conditionalApi(versions), unavailable]);
    await getPet(petstore, 1);
    expect((await getPet(petstore, 1)).response.status).toBe(503);
    Object.assign(versions, { '/v1/pets/1': { body: '{"id":1,"name":"Untagged","categoryId":1}' } });
    expect((await getPet(petstore, 1)).data?.name).toBe('Untagged');
    await getPet(petstore, 1);
    expect(ifNoneMatch()).toEqual([null, '"1"', '"1"', null]);
  });

  it("sends a caller's own If-None-Match as it is, and returns the API's 304 untouched", async () => {
    const { petstore, sent } = scripted(pet(1, '"1"'));
    await getPet(petstore, 1);
    const { data, response } = await petstore.GET('/pets/{petId}', {
      params: { path: { petId: 1 } },
      headers: { 'If-None-Match': '"0", "1"' },
    });
    expect(sent[1]?.ifNoneMatch).toBe('"0", "1"');
    const own = await petstore.GET('/pets/{petId}', {
      params: { path: { petId: 1 } },
      headers: { 'If-None-Match': '"1"' },
    });
    expect({ data, status: response.status }).toEqual({
      data: expect.objectContaining({ id: 1 }),
      status: 200,
    });
    expect({ data: own.data, status: own.response.status }).toEqual({ data: undefined, status: 304 });
  });

  it('keeps a gzipped answer as fetch decoded it, no longer marked gzip', async () => {
    const gzipped = { 'Content-Encoding': 'gzip', 'Content-Length': '61', Vary: 'Accept-Encoding' };
    const { petstore } = scripted({ '/v1/pets/7': { etag: 'W/"rex"', body: REX_JSON, headers: gzipped } });
    await getPet(petstore, 7);
    const { data, response } = await getPet(petstore, 7);
    expect(data).toEqual(REX);
    expect(response.headers.get('Content-Encoding')).toBeNull();
  });

  it('is not used for anything but a GET', async () => {
    const { petstore, sent } = scripted({ '/v1/pets': { etag: '"created"', body: REX_JSON, status: 201 } });
    await petstore.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    await petstore.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    await petstore.GET('/pets');
    expect(sent.map(({ method, ifNoneMatch }) => [method, ifNoneMatch])).toEqual([
      ['POST', null],
      ['POST', null],
      ['GET', null],
    ]);
  });

  it('is off with cache: false', async () => {
    const { petstore, ifNoneMatch } = scripted(pet(1, '"1"'), false);
    await getPet(petstore, 1);
    await getPet(petstore, 1);
    expect(ifNoneMatch()).toEqual([null, null]);
  });

  it('is private to its client', async () => {
    const versions = pet(1, '"1"');
    await getPet(scripted(versions).petstore, 1);
    const other = scripted(versions);
    await getPet(other.petstore, 1);
    expect(other.ifNoneMatch()).toEqual([null]);
  });
});

describe('the cache option', () => {
  it.each([
    [
      { maxEntries: 0 },
      'cache.maxEntries must be a whole number, 1 or more (cache: false keeps none); got 0',
    ],
    [
      { maxEntries: 2.5 },
      'cache.maxEntries must be a whole number, 1 or more (cache: false keeps none); got 2.5',
    ],
    [
      { maxEntries: '10' },
      'cache.maxEntries must be a whole number, 1 or more (cache: false keeps none); got "10"',
    ],
    [{}, 'cache.maxEntries must be a whole number, 1 or more (cache: false keeps none); got undefined'],
    [{ maxEntries: 10, size: 5 }, 'cache has no option size: the option is maxEntries'],
    [true, 'cache must be false or { maxEntries }; got true'],
    [0, 'cache must be false or { maxEntries }; got 0'],
    [null, 'cache must be false or { maxEntries }; got null'],
  ])('refuses %p at creation with a TypeError', (cache, message) => {
    const create = () =>
      createPetStoreClient({
        baseUrl: 'https://api.example.com/v1',
        apiKey: 'k',
        cache: cache as CacheOptions,
      });
    expect(create).toThrow(TypeError);
    expect(create).toThrow(message);
  });
});
