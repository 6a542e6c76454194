// What a store client relies on to cache, pace and shrink, end to end against any running API (part
// of the contract suite): weak ETags and 304s, Cache-Control, gzip on the wire with the same ETag, and
// the RateLimit-Policy of the key's usage plan. A read-only target registers no test that creates.
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { LIST_PAGE_MAX_AGE_SECONDS, MINIMUM_COMPRESSION_BYTES } from '#shared/http/routes.ts';
import type { Pet } from '#shared/schemas.ts';
import { e2eClient, followLinks } from '#test/e2e/client.ts';
import type { E2eRequest, E2eTarget } from '#test/e2e/client.ts';

const WEAK_ETAG = /^W\/"[A-Za-z0-9_-]{22}"$/;
const REVALIDATE = 'private, no-cache';
/** For tests that create pets on a stage whose per-key limit spreads them out. */
const CREATES_MS = 120_000;

export function defineStoreClientSuite(target: () => E2eTarget, runId: string): void {
  const { readOnly } = target();
  let request: E2eRequest;
  /** A pet that exists, and a page that holds it. */
  let petPath: string;
  beforeAll(async () => {
    request = e2eClient(target());
    if (!readOnly) {
      const body = JSON.stringify({ name: `e2e ${runId} Cached`, categoryId: 1 });
      await request('/v1/pets', { method: 'POST', body });
    }
    const [pet] = (await request('/v1/pets?limit=1')).json as Pet[];
    petPath = `/v1/pets/${pet?.id ?? 1}`;
  });
  const etagOf = async (path: string) => (await request(path)).headers.get('etag') ?? '';

  describe('conditional GETs', () => {
    it('gives a pet and a page a weak ETag and Cache-Control: private, no-cache; the same answer keeps it', async () => {
      for (const path of [petPath, '/v1/pets?limit=3']) {
        const [first, second] = [await request(path), await request(path)];
        expect([path, first.status]).toEqual([path, 200]);
        expect(first.headers.get('etag')).toMatch(WEAK_ETAG);
        expect(first.headers.get('cache-control')).toBe(REVALIDATE);
        expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      }
    });

    it.each([
      ['the ETag', (etag: string) => etag],
      ['its strong form (compared weakly)', (etag: string) => etag.slice(2)],
      ['a list of tags holding it', (etag: string) => `"a", ${etag}, W/"b"`],
      ['*', () => '*'],
    ])('answers If-None-Match with %s by a 304 without a body', async (_case, value) => {
      for (const path of [petPath, '/v1/pets?limit=3']) {
        const etag = await etagOf(path);
        const response = await request(path, { headers: { 'If-None-Match': value(etag) } });
        expect([path, response.status, response.text]).toEqual([path, 304, '']);
        expect(response.headers.get('etag')).toBe(etag);
        expect(response.headers.get('cache-control')).toBe(REVALIDATE);
        if (path === petPath) expect(response.headers.get('deprecation')).toBe('@1767225600');
      }
    });

    it('answers 200 to an If-None-Match that does not match', async () => {
      for (const value of ['"AAAAAAAAAAAAAAAAAAAAAA"', 'W/"other", "more"', 'not a tag']) {
        const response = await request(petPath, { headers: { 'If-None-Match': value } });
        expect([value, response.status]).toEqual([value, 200]);
      }
    });

    it('checks the key first: a matching ETag with a bad key is 401', async () => {
      const etag = await etagOf(petPath);
      for (const key of [null, 'psk_unknown']) {
        const response = await request(petPath, { key, headers: { 'If-None-Match': etag } });
        expect(response.status).toBe(401);
        expect(response.headers.get('etag')).toBeNull();
      }
    });

    it('gives a 404 no ETag, even for *', async () => {
      const response = await request('/v1/pets/9007199254740991', { headers: { 'If-None-Match': '*' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('etag')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    if (!readOnly)
      it(
        "changes a page's ETag when a create changes the page",
        async () => {
          // The listing's last page: where the new pet lands (or, if it was full, its next link).
          const { pages, links } = await followLinks(request, '/v1/pets?status=sold&limit=100', 1_000);
          const lastPath = links.at(-1) ?? '/v1/pets?status=sold&limit=100';
          const before = pages.at(-1)?.headers.get('etag') ?? '';
          const body = JSON.stringify({ name: `e2e ${runId} Changes`, categoryId: 1, status: 'sold' });
          expect((await request('/v1/pets', { method: 'POST', body })).status).toBe(201);
          // Production's stage cache may answer the old page for LIST_PAGE_MAX_AGE_SECONDS.
          const deadline = Date.now() + (LIST_PAGE_MAX_AGE_SECONDS + 1) * 1000;
          let revalidated = await request(lastPath, { headers: { 'If-None-Match': before } });
          while (revalidated.status === 304 && Date.now() < deadline) {
            await sleep(500);
            revalidated = await request(lastPath, { headers: { 'If-None-Match': before } });
          }
          expect(revalidated.status).toBe(200);
          expect(revalidated.headers.get('etag')).not.toBe(before);
        },
        CREATES_MS,
      );
  });

  describe('compression', () => {
    const page = '/v1/pets?limit=100';
    if (!readOnly)
      beforeAll(async () => {
        // Enough pets for a page past the compression threshold.
        while ((await request(page)).text.length < MINIMUM_COMPRESSION_BYTES) {
          const body = JSON.stringify({ name: `e2e ${runId} Compressible pet`, categoryId: 1 });
          await request('/v1/pets', { method: 'POST', body });
        }
      }, CREATES_MS);

    it(`gzips an answer of ${MINIMUM_COMPRESSION_BYTES} bytes or more for a client that accepts it, with the same ETag`, async () => {
      const plain = await request(page, { wire: true });
      expect(plain.wire?.length).toBeGreaterThanOrEqual(MINIMUM_COMPRESSION_BYTES);
      expect(plain.headers.get('content-encoding')).toBeNull();
      for (const [accept, coding, decode] of [
        ['gzip', 'gzip', gunzipSync],
        ['br;q=1, gzip;q=0.5', 'gzip', gunzipSync],
        ['deflate', 'deflate', inflateSync],
      ] as const) {
        const compressed = await request(page, { wire: true, headers: { 'Accept-Encoding': accept } });
        expect([accept, compressed.headers.get('content-encoding')]).toEqual([accept, coding]);
        expect(compressed.wire?.length).toBeLessThan(plain.wire?.length ?? 0);
        expect(decode(compressed.wire ?? Buffer.alloc(0)).toString()).toBe(plain.text);
        expect(compressed.headers.get('etag')).toBe(plain.headers.get('etag'));
      }
    });

    it('sends small answers, and answers to a client that refuses gzip, as they are', async () => {
      for (const [path, accept] of [
        [petPath, 'gzip'],
        ['/v1/pets/9007199254740991', 'gzip'],
        [page, 'gzip;q=0'],
        [page, '*'],
        [page, 'br'],
      ] as const) {
        const response = await request(path, { wire: true, headers: { 'Accept-Encoding': accept } });
        expect([path, accept, response.headers.get('content-encoding')]).toEqual([path, accept, null]);
        expect(response.wire?.toString()).toBe(response.text);
      }
    });
  });

  describe('RateLimit-Policy', () => {
    it("states the key's rate, burst and daily quota where keys are limited, and no RateLimit", async () => {
      const { keyLimits } = target();
      for (const path of [petPath, '/v1/pets?limit=3', '/v1/pets?limit=0']) {
        const response = await request(path);
        const policy = response.headers.get('ratelimit-policy');
        expect(response.headers.get('ratelimit')).toBeNull();
        if (keyLimits === null) {
          expect(policy).toBeNull();
          continue;
        }
        // A Structured Fields list of two quota policies (draft-ietf-httpapi-ratelimit-headers-11).
        const parsed = /^"rate";q=(\d+);w=1;petstore-burst=(\d+), "daily";q=(\d+);w=86400$/.exec(
          policy ?? '',
        );
        expect([path, policy, parsed === null]).toEqual([path, policy, false]);
        if (keyLimits)
          expect(parsed?.slice(1).map(Number)).toEqual([
            keyLimits.rateLimit,
            keyLimits.burstLimit,
            keyLimits.requestsPerDay,
          ]);
      }
    });
  });
}
