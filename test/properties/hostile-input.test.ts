// Property-based: random bodies, query strings, path ids, header values, content types and methods
// thrown at the whole stack in front of the functions (local/api-gateway/gateway.ts, as `npm start`
// serves it). Never a 5xx, always the Error shape, nothing stored when rejected; a name such as
// `toString` or `__proto__` is any other name.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { sourceApiGateway } from '#local/api-gateway/source-gateway.ts';
import { unknownPathError } from '#shared/http/gateway-responses.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { PET_FIELDS } from '#shared/store/pet-item.ts';
import type { PagePosition } from '#shared/store/pet-store.ts';
import { testApiKeys, testFunctions, testTable } from '#test/support/test-table.ts';

const handleGatewayRequest = sourceApiGateway(testFunctions);
const petStore = createDynamoDbPetStore(testTable);

let key: string;
let accepted = 0;

beforeAll(async () => {
  key = (await testApiKeys.issue('properties')).key;
});

type Call = { method: string; target: string; headers?: [string, string][]; body?: Buffer | string };

async function call({ method, target, headers = [], body = '' }: Call) {
  const result = await handleGatewayRequest({
    method,
    target,
    headers: [['Authorization', `Bearer ${key}`], ...headers],
    body: Buffer.from(body),
    bodyBytes: Buffer.byteLength(body),
    sourceIp: '127.0.0.1',
    requestId: randomUUID(),
  });
  const json = JSON.parse(result.body) as Record<string, unknown>;
  expect(result.statusCode).toBeLessThan(500);
  if (result.statusCode >= 400) {
    expect(json).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      status: result.statusCode,
    });
    expect(result.headers?.['Content-Type']).toBe('application/json');
    expect(String(json.message)).not.toMatch(/Exception|Error:|\n\s+at |node_modules|\.ts\b/);
  }
  return { status: result.statusCode, json, headers: result.headers ?? {} };
}

async function storedPets(): Promise<number> {
  let count = 0;
  let after: PagePosition | undefined;
  do {
    const page = await petStore.list({ limit: 100, after });
    count += page.pets.length;
    after = page.next;
  } while (after !== undefined);
  return count;
}

const RUNS = { numRuns: 150 };
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
/** The one body sent with an Idempotency-Key, so that a key two properties happen to share replays. */
const KEYED_BODY = '{"name":"Key","categoryId":1}';
const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e]/g, '');

/** Names an object already answers to: a map keyed by what a client sends must not look them up. */
const BUILT_IN_NAMES = [Object.prototype, Array.prototype, Function.prototype].flatMap((prototype) =>
  Object.getOwnPropertyNames(prototype),
);
const builtInName = fc
  .tuple(fc.constantFrom(...BUILT_IN_NAMES), fc.boolean())
  .map(([name, upper]) => (upper ? name.toUpperCase() : name));

describe('names like an object built-in, anywhere a client can put a name', () => {
  const newPet = '{"name":"Builtin","categoryId":1}';
  let petId: string;
  beforeAll(async () => {
    const created = await call({
      method: 'POST',
      target: '/v1/pets',
      headers: [['Content-Type', 'application/json']],
      body: newPet,
    });
    petId = String(created.json.id);
    accepted++;
  });
  const reads = () => ['/v1/pets?limit=2', `/v1/pets/${petId}`];

  it('as a query parameter or header on a read: the answer is the one without it', async () => {
    await fc.assert(
      fc.asyncProperty(builtInName, fc.constantFrom(0, 1), async (name, route) => {
        const target = reads()[route] ?? '';
        const without = await call({ method: 'GET', target });
        const asQuery = await call({ method: 'GET', target: `${target}${route ? '?' : '&'}${name}=a` });
        const asHeader = await call({ method: 'GET', target, headers: [[name, '1']] });
        expect(without.status).toBe(200);
        for (const answer of [asQuery, asHeader]) expect(answer.json).toEqual(without.json);
      }),
      RUNS,
    );
  });

  it('as a query parameter or header on createPet: a 201 like any other', async () => {
    await fc.assert(
      fc.asyncProperty(builtInName, async (name) => {
        const json: [string, string] = ['Content-Type', 'application/json'];
        const asQuery = await call({
          method: 'POST',
          target: `/v1/pets?${name}=a`,
          headers: [json],
          body: newPet,
        });
        const asHeader = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [json, [name, '1']],
          body: newPet,
        });
        for (const { status, json: pet } of [asQuery, asHeader]) {
          expect(status).toBe(201);
          expect(pet).toMatchObject({ name: 'Builtin', categoryId: 1 });
          accepted++;
        }
      }),
      RUNS,
    );
  });

  it('as a body field, an id, a cursor or an idempotency key: the answer any such value gets', async () => {
    await fc.assert(
      fc.asyncProperty(builtInName, async (name) => {
        // `name` is Function.prototype's and a pet's: as a field it is a known one.
        fc.pre(!Object.keys(PET_FIELDS).includes(name));
        const stored = await storedPets();
        const json: [string, string] = ['Content-Type', 'application/json'];
        const field = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [json],
          body: `{"name":"Builtin","categoryId":1,${JSON.stringify(name)}:{"status":"sold"}}`,
        });
        expect(field.json).toEqual({
          code: 'validation_error',
          message: `${name}: unknown field`,
          status: 400,
        });
        expect(await storedPets()).toBe(stored);
        expect((await call({ method: 'GET', target: `/v1/pets/${name}` })).status).toBe(400);
        expect((await call({ method: 'GET', target: `/v1/pets?cursor=${name}` })).status).toBe(400);
        const keyed = { method: 'POST', target: '/v1/pets', headers: [json, ['Idempotency-Key', name]] };
        const first = await call({ ...keyed, body: KEYED_BODY } as Call);
        const replay = await call({ ...keyed, body: KEYED_BODY } as Call);
        expect([first.status, replay.status]).toEqual([201, 201]);
        expect(replay.json).toEqual(first.json);
        if (!first.headers['Idempotent-Replayed']) accepted++;
      }),
      RUNS,
    );
  });
});

describe('hostile input', () => {
  it('createPet: any body and content type is a 201 or a 4xx Error, and only a 201 stores', async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, contentType, async (body, type) => {
        const before = await storedPets();
        const response = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [['Content-Type', headerSafe(type)]],
          body,
        });
        expect([201, 400, 413, 415]).toContain(response.status);
        if (response.status === 201) accepted++;
        expect(await storedPets()).toBe(before + (response.status === 201 ? 1 : 0));
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
        const stored = await storedPets();
        const response = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [['Content-Type', 'application/json']],
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        expect(response.status).toBe(400);
        expect(response.json.message).toMatch(/^name: must not contain control characters/);
        expect(await storedPets()).toBe(stored);
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
        const stored = await storedPets();
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
        expect(await storedPets()).toBe(stored);
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
        if (response.status === 201 && !response.headers['Idempotent-Replayed']) accepted++;
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

  it('stored exactly the accepted creates', async () => {
    expect(await storedPets()).toBe(accepted);
  });
});
