// Property-based: random bodies, query strings, path ids, header values, content types and methods
// thrown at the whole stack in front of the functions (gateway-calls.ts). Never a 5xx, always the
// Error shape, nothing stored when rejected.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  KEYED_BODY,
  RUNS,
  call,
  handleGatewayRequest,
  created,
  headerSafe,
  storedExactlyTheCreated,
  storedItems,
} from '#test/properties/gateway-calls.ts';
import { unknownPathError } from '#shared/http/gateway-responses.ts';

const nameLike = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.constant(' '),
  fc.integer(),
  fc.constant(null),
);
const categoryLike = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((value) => value.toString()),
  fc.double().map(String),
  fc.constantFrom('"1"', 'true', '[]', '{}', '1.0', '1e2', '-0', '9223372036854775808'),
);
const petLikeBody = fc
  .record(
    {
      name: nameLike.map((value) => JSON.stringify(value)),
      categoryId: categoryLike,
      status: fc.constantFrom('"available"', '"pending"', '"sold"', '"lost"', 'null', '1'),
      id: fc.nat().map(String),
      extra: fc.string().map((value) => JSON.stringify(value)),
    },
    { requiredKeys: [] },
  )
  .map(
    (fields) =>
      `{${Object.entries(fields)
        .map(([name, value]) => `"${name}":${value}`)
        .join(',')}}`,
  );
const anyBody = fc.oneof(
  petLikeBody,
  fc.json(),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);
const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'application/json; charset=latin1',
    '',
  ),
  fc.string({ maxLength: 40 }),
);

describe('hostile input', () => {
  it('createPet: any body and content type is a 201 or a 4xx Error, and only a 201 stores', async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, contentType, async (body, type) => {
        const before = await storedItems();
        const response = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [['Content-Type', headerSafe(type)]],
          body,
        });
        expect([201, 400, 413, 415]).toContain(response.status);
        // A 201 stores its pet (counted at the end); anything else stores nothing at all.
        if (response.status === 201) created.count++;
        else expect(await storedItems()).toBe(before);
      }),
      RUNS,
    );
  });

  it('createPet: a name with a C0, DEL or C1 control anywhere is a 400 naming name, and stores nothing', async () => {
    const control = fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
      .map((codePoint) => String.fromCodePoint(codePoint));
    const text = fc.string({ unit: 'grapheme', maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(text, control, text, async (before, character, after) => {
        const name = `${before}${character}${after}`;
        fc.pre([...name].length <= 100);
        const stored = await storedItems();
        const response = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [['Content-Type', 'application/json']],
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        expect(response.status).toBe(400);
        expect(response.json.message).toMatch(/^name: must not contain control characters/);
        expect(await storedItems()).toBe(stored);
      }),
      RUNS,
    );
  });

  it('createPet: any Content-Encoding but identity is a 415 with Accept-Encoding, and stores nothing', async () => {
    const coding = fc.oneof(
      fc.constantFrom('gzip', 'x-gzip', 'br', 'deflate', 'compress', 'zstd', 'aes128gcm', 'GZip'),
      fc.string({ minLength: 1, maxLength: 12 }).map(headerSafe),
    );
    // The coding among identities and empty list elements, in any place.
    const contentEncoding = fc
      .tuple(
        fc.array(fc.constantFrom<string>('identity', 'IDENTITY', '', ' '), { maxLength: 2 }),
        coding,
        fc.nat(),
      )
      .map(([identities, other, at]) =>
        identities.toSpliced(at % (identities.length + 1), 0, other).join(','),
      );
    await fc.assert(
      fc.asyncProperty(contentEncoding, async (value) => {
        fc.pre(!/^[\s,]*(identity[\s,]*)*$/i.test(value));
        const stored = await storedItems();
        const response = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [
            ['Content-Type', 'application/json'],
            ['Content-Encoding', value],
          ],
          body: '{"name":"Encoded","categoryId":1}',
        });
        expect(response.status).toBe(415);
        expect(response.json.code).toBe('unsupported_media_type');
        expect(response.headers['Accept-Encoding']).toBe('identity');
        expect(await storedItems()).toBe(stored);
      }),
      RUNS,
    );
  });

  it('createPet: any Idempotency-Key header value is accepted or a 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (idempotencyKey) => {
        const response = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [
            ['Content-Type', 'application/json'],
            ['Idempotency-Key', headerSafe(idempotencyKey)],
          ],
          body: KEYED_BODY,
        });
        expect([201, 400]).toContain(response.status);
        if (response.status === 201 && !response.headers['Idempotent-Replayed']) created.count++;
      }),
      RUNS,
    );
  });

  it('listPets: any query string is a 200 array or a 400 Error', async () => {
    const parameter = fc.tuple(
      fc.constantFrom('limit', 'status', 'cursor', 'other', 'LIMIT'),
      fc.string({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(parameter, { maxLength: 4 }), async (parameters) => {
        const query = new URLSearchParams(parameters).toString();
        const response = await call({ method: 'GET', target: `/v1/pets?${query}` });
        expect([200, 400]).toContain(response.status);
        if (response.status === 200) expect(Array.isArray(response.json)).toBe(true);
      }),
      RUNS,
    );
  });

  it('getPet: any path id is a 200, 400 or 404, always with the deprecation headers', async () => {
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    );
    await fc.assert(
      fc.asyncProperty(id, async (petId) => {
        const response = await call({ method: 'GET', target: `/v1/pets/${encodeURIComponent(petId)}` });
        expect([200, 400, 404]).toContain(response.status);
        // A petId like '..' or '%2F' is no longer one path segment: only the getPet route adds the headers.
        if (response.json.message !== unknownPathError().message) {
          expect(response.headers.Deprecation).toBe('@1767225600');
        }
      }),
      RUNS,
    );
  });

  it('any method on any path is answered without a 5xx', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE');
    const path = fc.oneof(
      fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1', '/', '/v1/pets/1/x'),
      fc.webPath(),
    );
    await fc.assert(
      fc.asyncProperty(method, path, async (verb, target) => {
        const response = await call({
          method: verb,
          target: target || '/',
          headers: [['Content-Type', 'application/json']],
          body: '{}',
        });
        expect([200, 400, 404, 405]).toContain(response.status);
      }),
      RUNS,
    );
  });

  it('any Authorization header is a 401 unless it carries the key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (header) => {
        const result = await handleGatewayRequest({
          method: 'GET',
          target: '/v1/pets',
          headers: [['Authorization', headerSafe(header)]],
          body: Buffer.alloc(0),
          bodyBytes: 0,
          sourceIp: '127.0.0.1',
          requestId: randomUUID(),
        });
        expect(result.statusCode).toBe(401);
        expect(JSON.parse(result.body)).toEqual({
          code: 'unauthorized',
          message: expect.any(String),
          status: 401,
        });
      }),
      RUNS,
    );
  });
});

storedExactlyTheCreated();
