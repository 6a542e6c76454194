// The HTTP contract tests, end to end, against any running API (`npm start`, a local emulation of a
// synthesized stage, a deployed stage), given only a base URL and an API key: no access to the table,
// no assumption that it is empty, and every name carries this run's id so the suite finds its own pets.
// A read-only target registers no test that creates anything; the other checks run in both modes.
import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { LIST_PAGE_MAX_AGE_SECONDS } from '#shared/http/routes.ts';
import type { Pet } from '#shared/schemas.ts';
import { e2eClient, followLinks, nextLink } from '#test/e2e/client.ts';
import type { E2eRequest, E2eTarget } from '#test/e2e/client.ts';
import { defineStoreClientSuite } from '#test/e2e/store-client-suite.ts';
import type { HttpResponse } from '#test/support/http.ts';

/** For tests that send many requests: a stage's per-key rate limit spreads them out. */
const MANY_REQUESTS_MS = 120_000;
/** For walks through a whole status listing of a stage that holds other data too. */
const WHOLE_LISTING_MS = 300_000;
/** A bound on a walk through a whole listing, so that a Link loop fails instead of hanging. */
const MAX_PAGES = 1_000;
/** An id no pet has: the largest the contract allows (2^53 - 1), far beyond any id the service hands out. */
const ABSENT_ID = '9007199254740991';

/** Names every JavaScript object answers to; a client may use any of them as a parameter or header. */
const BUILT_IN_NAMES = ['toString', '__proto__', 'constructor', 'valueOf', 'hasOwnProperty'];

const expectError = (response: HttpResponse, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.json).toEqual({ code, message: expect.any(String), status });
};

const idsOf = (pages: HttpResponse[]) => pages.flatMap((page) => (page.json as Pet[]).map((pet) => pet.id));

const isAscending = (ids: number[]) => ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0));

/** 'aBc' -> 'AbC': the same key in another case, whatever case its letters have. */
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/**
 * Registers the contract tests. `target` is read in the tests (the caller may know the base URL
 * only from its beforeAll on) and once at registration, for `readOnly` only: it decides which
 * tests exist, since a test that is not to run is not registered at all.
 */
export function defineContractSuite(target: () => E2eTarget): void {
  const { readOnly } = target();
  const runId = randomUUID().slice(0, 8);
  let request: E2eRequest;
  beforeAll(() => {
    request = e2eClient(target());
  });

  /**
   * Paths outside the stage (`/`, `/v2/pets`) are the API's only on a local server, where the
   * whole origin is the API. On a deployed host they belong to no stage: API Gateway answers them
   * before any of the API's configuration applies, so they are left out there.
   */
  const outsideStage = (paths: string[]) => {
    const { hostname, pathname } = new URL(target().baseUrl);
    const local = ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
    return local && pathname === '/v1' ? paths : [];
  };

  describe('authentication', () => {
    it('answers 401 without an Authorization header, on known and unknown paths', async () => {
      for (const path of ['/v1/pets', '/v1/pets/1', '/v1/nothing', ...outsideStage(['/', '/v2/pets'])]) {
        expectError(await request(path, { key: null }), 401, 'unauthorized');
      }
      expectError(await request('/v1/pets', { method: 'DELETE', key: null }), 401, 'unauthorized');
    });

    it.each([
      ['another scheme', (key: string) => `Basic ${key}`],
      ['an empty token', () => 'Bearer '],
      ['no scheme', (key: string) => key],
      ['an unknown key', () => 'Bearer psk_unknown'],
      ['the key in another case', (key: string) => `Bearer ${swapCase(key)}`],
    ])('answers 401 for %s', async (_case, header) => {
      expectError(
        await request('/v1/pets', { headers: { Authorization: header(target().apiKey) } }),
        401,
        'unauthorized',
      );
    });

    it('accepts the scheme in any case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const response = await request('/v1/pets', {
          headers: { Authorization: `${scheme} ${target().apiKey}` },
        });
        expect(response.status).toBe(200);
      }
    });

    it('challenges for a bearer token on 401', async () => {
      for (const key of [null, 'psk_unknown']) {
        const response = await request('/v1/pets', { key });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
      }
    });
  });

  describe('routes', () => {
    it('answers 404 not_found for unknown paths', async () => {
      for (const path of [
        '/v1/nothing',
        '/v1/pets/1/owner',
        '/v1',
        ...outsideStage(['/', '/pets', '/v2/pets']),
      ]) {
        expectError(await request(path), 404, 'not_found');
      }
    });

    it('answers 405 with Allow for known paths with another method', async () => {
      const pets = await request('/v1/pets', { method: 'DELETE' });
      expectError(pets, 405, 'method_not_allowed');
      expect(pets.headers.get('allow')).toBe('GET, POST');
      const pet = await request('/v1/pets/1', { method: 'PUT', body: '{}' });
      expectError(pet, 405, 'method_not_allowed');
      expect(pet.headers.get('allow')).toBe('GET');
    });

    it('puts 401 before 404 and 405, and 404/405 before 413 and 415', async () => {
      expectError(await request('/v1/nothing', { method: 'POST', key: null }), 401, 'unauthorized');
      const big = 'x'.repeat(20_000);
      expectError(await request('/v1/nothing', { method: 'POST', body: big }), 404, 'not_found');
      expectError(await request('/v1/pets/1', { method: 'POST', body: big }), 405, 'method_not_allowed');
      expectError(
        await request('/v1/pets', { method: 'POST', body: big, headers: { 'Content-Type': 'text/plain' } }),
        413,
        'payload_too_large',
      );
    });
  });

  describe('reading pets, which changes nothing', () => {
    it.each([
      ['of every status', ''],
      ['with status available', 'available'],
      ['with status pending', 'pending'],
      ['with status sold', 'sold'],
    ])('lists a JSON array of valid pets %s', async (_case, status) => {
      const response = await request(`/v1/pets?limit=100${status ? `&status=${status}` : ''}`);
      expect(response.status).toBe(200);
      // Its pets match the Animal schema: the client checked the body against openapi.json.
      const pets = response.json as Pet[];
      expect(Array.isArray(pets)).toBe(true);
      expect(pets.length).toBeLessThanOrEqual(100);
      if (status) expect(pets.filter((pet) => pet.status !== status)).toEqual([]);
      expect(isAscending(pets.map((pet) => pet.id))).toBe(true);
    });

    it('follows Link headers page by page (at most 5 pages of 2)', async () => {
      const { pages, links } = await followLinks(request, '/v1/pets?limit=2', 5);
      expect(pages.length).toBeGreaterThanOrEqual(1);
      // A page with a next link is full; ids keep rising from page to page, so none comes twice.
      for (const page of pages) {
        const count = (page.json as Pet[]).length;
        if (nextLink(page)) expect(count).toBe(2);
        else expect(count).toBeLessThanOrEqual(2);
      }
      expect(isAscending(idsOf(pages))).toBe(true);
      for (const link of links) expect(link).toMatch(/^\/v1\/pets\?limit=2&cursor=[\w.-]+$/);
    });

    it('answers 404 not_found, deprecated, for a pet that does not exist', async () => {
      const response = await request(`/v1/pets/${ABSENT_ID}`);
      expectError(response, 404, 'not_found');
      expect(response.headers.get('deprecation')).toBe('@1767225600');
      expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    });

    it('answers a query parameter or header named like an object built-in as if it were absent', async () => {
      for (const [target, status] of [
        ['/v1/pets?limit=1', 200],
        [`/v1/pets/${ABSENT_ID}`, 404],
      ] as const) {
        const expected = (await request(target)).json;
        for (const name of BUILT_IN_NAMES) {
          const joiner = target.includes('?') ? '&' : '?';
          const asQuery = await request(`${target}${joiner}${name}=a`);
          const asHeader = await request(target, { headers: { [name]: '1' } });
          for (const { status: answered, json } of [asQuery, asHeader]) {
            expect([name, answered]).toEqual([name, status]);
            if (status === 404) expect(json).toEqual(expected);
          }
        }
      }
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=101', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['status=lost', 'status'],
    ])('answers 400 validation_error for ?%s', async (query, field) => {
      const response = await request(`/v1/pets?${query}`);
      expectError(response, 400, 'validation_error');
      expect((response.json as { message: string }).message).toMatch(new RegExp(`^${field}: `));
    });
  });

  describe('what a store client caches, paces and shrinks', () => {
    defineStoreClientSuite(target, runId);
  });

  describe('bodies the API refuses, which create nothing', () => {
    it('answers 415 for a body that is not JSON and 400 for one that is invalid', async () => {
      expectError(
        await request('/v1/pets', {
          method: 'POST',
          body: 'name=Rex',
          headers: { 'Content-Type': 'text/plain' },
        }),
        415,
        'unsupported_media_type',
      );
      for (const body of ['{"name":', '{}', '{"name":""}', `{"name":"e2e ${runId}","categoryId":0}`]) {
        expectError(await request('/v1/pets', { method: 'POST', body }), 400, 'validation_error');
      }
    });

    // The bodies are invalid too, so that nothing is created even where the coding were accepted.
    it('answers 415 for a body with a Content-Encoding other than identity', async () => {
      const invalid = `{"name":"e2e ${runId}","categoryId":0}`;
      for (const [contentEncoding, body] of [
        ['gzip', gzipSync(invalid)],
        ['br', invalid],
      ] as const) {
        const response = await request('/v1/pets', {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': contentEncoding },
        });
        expectError(response, 415, 'unsupported_media_type');
      }
    });

    it('answers 400 naming name for a name with control characters', async () => {
      for (const name of ['a\u0000b', '\u001b[31mRex', 'Rex\r\nforged', 'Rex\u009b']) {
        const body = JSON.stringify({ name: `e2e ${runId} ${name}`, categoryId: 0 });
        const response = await request('/v1/pets', { method: 'POST', body });
        expectError(response, 400, 'validation_error');
        expect((response.json as { message: string }).message).toMatch(/^name: must not contain control/);
      }
    });

    it('answers 413 for a body over 16 KiB', async () => {
      const body = JSON.stringify({ name: 'x'.repeat(17_000), categoryId: 1 });
      expectError(await request('/v1/pets', { method: 'POST', body }), 413, 'payload_too_large');
    });
  });

  if (readOnly) return;

  describe('creating pets', () => {
    // Every pet of this run has the run's id in its name and one category of its own.
    const categoryId = randomInt(1, 2 ** 47);
    const create = (name: string, status?: Pet['status']) =>
      request('/v1/pets', {
        method: 'POST',
        body: JSON.stringify({ name: `e2e ${runId} ${name}`, categoryId, status }),
      });

    it(
      'creates, reads and lists a pet',
      async () => {
        const created = await create('Rex', 'pending');
        const createdAt = Date.now();
        expect(created.status).toBe(201);
        const pet = created.json as Pet;
        expect(pet).toEqual({
          id: expect.any(Number),
          name: `e2e ${runId} Rex`,
          categoryId,
          status: 'pending',
        });
        expect(created.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
        const read = await request(created.headers.get('location') ?? '');
        expect(read.json).toEqual(pet);
        expect(read.headers.get('deprecation')).toBe('@1767225600');
        expect(read.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
        // A page may be LIST_PAGE_MAX_AGE_SECONDS old (production's stage cache), the status index a
        // moment behind: the pet is listed at once or, at the latest, once that time is over.
        const listed = async () => {
          const { pages } = await followLinks(request, '/v1/pets?status=pending&limit=100', MAX_PAGES);
          return pages.flatMap((page) => page.json as Pet[]);
        };
        const deadline = createdAt + (LIST_PAGE_MAX_AGE_SECONDS + 1) * 1000;
        let pets = await listed();
        while (!pets.some(({ id }) => id === pet.id) && Date.now() < deadline) {
          await sleep(500);
          pets = await listed();
        }
        expect(pets).toContainEqual(pet);
      },
      WHOLE_LISTING_MS,
    );

    it('creates a pet with a query parameter and a header named like an object built-in', async () => {
      const name = `e2e ${runId} Builtin`;
      const created = await request('/v1/pets?__proto__=a&constructor=b', {
        method: 'POST',
        headers: { toString: '1', hasOwnProperty: '1' },
        body: JSON.stringify({ name, categoryId }),
      });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ name, categoryId });
    });

    it('keeps int64 values exact in the raw response text', async () => {
      const body = `{"name":"e2e ${runId} Big","categoryId":9223372036854775807}`;
      const created = await request('/v1/pets', { method: 'POST', body });
      expect(created.status).toBe(201);
      expect(created.text).toMatch(/"categoryId":9223372036854775807[,}]/);
      const location = created.headers.get('location') ?? '';
      expect((await request(location)).text).toMatch(/"categoryId":9223372036854775807[,}]/);
    });

    it(
      'follows Link headers through every pet exactly once',
      async () => {
        const mine: number[] = [];
        for (let i = 0; i < 12; i++) {
          const created = await create(`Walker ${i}`, 'sold');
          expect(created.status).toBe(201);
          mine.push((created.json as Pet).id);
        }
        const { pages, links, complete } = await followLinks(
          request,
          '/v1/pets?status=sold&limit=5',
          MAX_PAGES,
        );
        expect(complete).toBe(true);
        for (const link of links) expect(link).toMatch(/^\/v1\/pets\?limit=5&status=sold&cursor=[\w.-]+$/);
        const seen = idsOf(pages);
        expect(isAscending(seen)).toBe(true);
        expect(seen.filter((id) => mine.includes(id)).sort((a, b) => a - b)).toEqual(
          mine.sort((a, b) => a - b),
        );
        expect(pages.every((page) => (page.json as Pet[]).length <= 5)).toBe(true);
      },
      WHOLE_LISTING_MS,
    );

    it(
      'gives 100 parallel creates distinct ids',
      async () => {
        const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => create(`Par ${i}`)));
        expect(responses.map((response) => response.status)).toEqual(Array(100).fill(201));
        expect(new Set(responses.map((response) => (response.json as Pet).id)).size).toBe(100);
        expect(responses.map((response) => (response.json as Pet).name)).toEqual(
          Array.from({ length: 100 }, (_, i) => `e2e ${runId} Par ${i}`),
        );
      },
      MANY_REQUESTS_MS,
    );
  });
}
