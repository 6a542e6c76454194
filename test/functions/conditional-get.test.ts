// Conditional GETs on getPet and listPets, their handlers invoked with proxy events over this file's
// table: a weak ETag on every 200, a 304 with no body for an If-None-Match that matches it weakly (a
// list of tags, or `*`), no ETag on an error, and the same tag for the same page until it changes.
import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  createPetRequest,
  getPetRequest,
  invoke,
  listPetsRequest,
} from '#local/api-gateway/proxy-requests.ts';
import type { ProxyRequest } from '#shared/http/proxy-event.ts';
import type { Pet } from '#shared/schemas.ts';
import { testFunctions } from '#test/support/test-table.ts';

const { createPet, getPet, listPets } = testFunctions;
const WEAK_ETAG = /^W\/"[A-Za-z0-9_-]{22}"$/;

const withHeaders = (request: ProxyRequest, ...headers: [string, string][]): ProxyRequest => ({
  ...request,
  headers: [...(request.headers ?? []), ...headers],
});
const ifNoneMatch = (request: ProxyRequest, value: string) => withHeaders(request, ['If-None-Match', value]);

let pet: Pet;
let etag: string;

beforeAll(async () => {
  pet = (await invoke(createPet, createPetRequest({ name: 'Tagged', categoryId: 5 }))).json as Pet;
  etag = (await invoke(getPet, getPetRequest(String(pet.id)))).headers.ETag ?? '';
});

describe('a successful GET', () => {
  it('carries a weak ETag, and says a private cache may keep it if it revalidates', async () => {
    for (const request of [getPetRequest(String(pet.id)), listPetsRequest('limit=5')]) {
      const response = await invoke(request.resource === '/pets' ? listPets : getPet, request);
      expect(response.status).toBe(200);
      expect(response.headers.ETag).toMatch(WEAK_ETAG);
      expect(response.headers).toMatchObject({
        'Cache-Control': 'private, no-cache',
        Vary: 'Accept-Encoding',
      });
    }
  });

  it('keeps its ETag while it is the same', async () => {
    expect((await invoke(getPet, getPetRequest(String(pet.id)))).headers.ETag).toBe(etag);
  });
});

describe('If-None-Match', () => {
  const stored = () => etag.replace(/^W\//, '');
  it.each([
    ['the tag itself', () => etag],
    ['the tag without W/ (compared weakly)', stored],
    ['a list holding the tag', () => `"other", ${etag} , W/"third"`],
    ['a list with empty elements', () => `, ${etag},`],
    ['*', () => '*'],
  ])('answers 304 with no body for %s, keeping the 200s headers', async (_case, value) => {
    const response = await invoke(getPet, ifNoneMatch(getPetRequest(String(pet.id)), value()));
    expect(response.status).toBe(304);
    expect(response.text).toBe('');
    expect(response.headers).toMatchObject({
      ETag: etag,
      'Cache-Control': 'private, no-cache',
      Deprecation: '@1767225600',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version"',
    });
    expect(response.headers).not.toHaveProperty('Content-Type');
  });

  it.each([
    ['another tag', '"AAAAAAAAAAAAAAAAAAAAAA"'],
    ['the tag unquoted', () => etag.replace(/^W\/"|"$/g, '')],
    ['a list that does not parse, holding the tag', () => `${etag} garbage`],
    ['an empty field', ''],
  ])('answers 200 with the whole answer for %s', async (_case, value) => {
    const sent = typeof value === 'function' ? value() : value;
    const response = await invoke(getPet, ifNoneMatch(getPetRequest(String(pet.id)), sent));
    expect(response.status).toBe(200);
    expect(response.json).toEqual(pet);
  });

  it('reads the last line of a field sent on several, as the stage cache keys it', async () => {
    const twice = withHeaders(
      getPetRequest(String(pet.id)),
      ['If-None-Match', etag],
      ['If-None-Match', '"x"'],
    );
    expect((await invoke(getPet, twice)).status).toBe(200);
    const lastMatches = withHeaders(
      getPetRequest(String(pet.id)),
      ['If-None-Match', '"x"'],
      ['if-none-match', etag],
    );
    expect((await invoke(getPet, lastMatches)).status).toBe(304);
  });

  it('gives a 404 no ETag, and keeps it no-store, even for *', async () => {
    const response = await invoke(getPet, ifNoneMatch(getPetRequest('999999'), '*'));
    expect(response.status).toBe(404);
    expect(response.headers).not.toHaveProperty('ETag');
    expect(response.headers['Cache-Control']).toBe('no-store');
  });

  it('gives a create no ETag, and keeps it no-store', async () => {
    const response = await invoke(createPet, createPetRequest({ name: 'Untagged', categoryId: 5 }));
    expect(response.status).toBe(201);
    expect(response.headers).not.toHaveProperty('ETag');
    expect(response.headers['Cache-Control']).toBe('no-store');
  });
});

describe("a list page's ETag", () => {
  const category = 'limit=2&status=pending';
  const page = async (query = category) => invoke(listPets, listPetsRequest(query));

  it('is the same for the same page asked twice, its next link and cursor included', async () => {
    for (let i = 0; i < 3; i++)
      await invoke(createPet, createPetRequest({ name: `Pending ${i}`, categoryId: 6, status: 'pending' }));
    const [first, second] = [await page(), await page()];
    expect(first.headers.Link).toMatch(/rel="next"$/);
    expect(second.headers).toMatchObject({ ETag: first.headers.ETag, Link: first.headers.Link });
    const next = /<\/v1\/pets\?([^>]+)>/.exec(first.headers.Link ?? '')?.[1] ?? '';
    expect((await page(next)).headers.ETag).toBe((await page(next)).headers.ETag);
    expect((await page(next)).headers.ETag).not.toBe(first.headers.ETag);
  });

  it('changes when a create changes the page, and a 304 for the old tag becomes a 200', async () => {
    // This file's table holds fewer than 100 pending pets: the new one lands on this one page.
    const whole = 'limit=100&status=pending';
    const before = await page(whole);
    expect(before.headers.Link).toBeUndefined();
    expect(
      (await invoke(listPets, ifNoneMatch(listPetsRequest(whole), before.headers.ETag ?? ''))).status,
    ).toBe(304);
    await invoke(createPet, createPetRequest({ name: 'Newcomer', categoryId: 6, status: 'pending' }));
    const after = await page(whole);
    expect(after.headers.ETag).not.toBe(before.headers.ETag);
    const revalidated = await invoke(
      listPets,
      ifNoneMatch(listPetsRequest(whole), before.headers.ETag ?? ''),
    );
    expect(revalidated.status).toBe(200);
    expect(revalidated.json).toEqual(after.json);
  });
});
