// createPet's handler, invoked with API Gateway proxy events over this file's table in the test
// DynamoDB: the Animal it answers, and the contract's order of 413, 415 and 400 for bad bodies.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import {
  createPetRequest,
  getPetRequest,
  invoke,
  listPetsRequest,
} from '#local/api-gateway/proxy-requests.ts';
import { testFunctions } from '#test/support/test-table.ts';

const { createPet, getPet, listPets } = testFunctions;

const petCount = async () =>
  ((await invoke(listPets, listPetsRequest('limit=100'))).json as unknown[]).length;

describe('createPet', () => {
  it('answers 201 with the Animal, its Location and the default status', async () => {
    const response = await invoke(createPet, createPetRequest({ name: 'Rex', categoryId: 7 }));
    expect(response.status).toBe(201);
    const pet = response.json as { id: number };
    expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 7, status: 'available' });
    expect(Number.isSafeInteger(pet.id) && pet.id >= 1).toBe(true);
    expect(response.headers.Location).toBe(`/v1/pets/${pet.id}`);
    expect(response.headers['Content-Type']).toBe('application/json');
    expect(Object.keys(pet)).toEqual(['id', 'name', 'categoryId', 'status']);
  });

  it.each(['available', 'pending', 'sold'])('keeps the status %s', async (status) => {
    const response = await invoke(createPet, createPetRequest({ name: 'Tom', categoryId: 1, status }));
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ status });
  });

  it('keeps an int64 categoryId exact in every response', async () => {
    const body = '{"name":"Big","categoryId":9223372036854775807}';
    const created = await invoke(createPet, createPetRequest(body));
    expect(created.text).toContain('"categoryId":9223372036854775807');
    const id = String((created.json as { id: number }).id);
    expect((await invoke(getPet, getPetRequest(id))).text).toContain('"categoryId":9223372036854775807');
    expect((await invoke(listPets, listPetsRequest('limit=100'))).text).toContain(
      '"categoryId":9223372036854775807',
    );
  });

  it('reads categoryId 1.0 and 1e2 as the integers 1 and 100 (JSON Schema integers)', async () => {
    const one = await invoke(createPet, createPetRequest('{"name":"One","categoryId":1.0}'));
    expect(one.text).toContain('"categoryId":1,');
    const hundred = await invoke(createPet, createPetRequest('{"name":"Hundred","categoryId":1e2}'));
    expect(hundred.text).toContain('"categoryId":100,');
  });

  it('stores and returns unicode names as sent, counting code points', async () => {
    const names = ['Chloé', '小狗', '🐶'.repeat(100), 'a'.repeat(100), ' padded '];
    for (const name of names) {
      const response = await invoke(createPet, createPetRequest({ name, categoryId: 3 }));
      expect(response.status).toBe(201);
      expect((response.json as { name: string }).name).toBe(name);
    }
  });

  it('accepts names next to the control ranges: space, U+00A0, and the ZWJ of emoji', async () => {
    for (const name of [' Rex ', 'Rex\u00a0II', '~Rex~', '👩\u200d👩\u200d👧', 'Ré\u00a0\u2028']) {
      const response = await invoke(createPet, createPetRequest({ name, categoryId: 3 }));
      expect(response.status).toBe(201);
      expect((response.json as { name: string }).name).toBe(name);
    }
  });

  it('accepts application/json with a UTF-8 charset, in any case', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"']) {
      const response = await invoke(
        createPet,
        createPetRequest({ name: 'Ok', categoryId: 1 }, { contentType }),
      );
      expect(response.status).toBe(201);
    }
  });

  const invalidBodies: [string, string, string][] = [
    ['missing name', '{"categoryId":1}', 'name: is required'],
    ['missing categoryId', '{"name":"Rex"}', 'categoryId: is required'],
    ['empty name', '{"name":"","categoryId":1}', 'name: must be 1 to 100 characters'],
    ['blank name', '{"name":" \\u00a0\\u3000 ","categoryId":1}', 'name: must not be only whitespace'],
    ['name of tab and newline', '{"name":" \\t\\n ","categoryId":1}', 'name: must not contain control'],
    ['NUL in the name', '{"name":"a\\u0000b","categoryId":1}', 'name: must not contain control characters'],
    ['ANSI escape in the name', '{"name":"\\u001b[31mRex","categoryId":1}', 'name: must not contain control'],
    ['CR LF in the name', '{"name":"Rex\\r\\nINFO forged","categoryId":1}', 'name: must not contain control'],
    ['DEL in the name', '{"name":"Rex\\u007f","categoryId":1}', 'name: must not contain control'],
    ['C1 NEL in the name', '{"name":"Rex\\u0085","categoryId":1}', 'name: must not contain control'],
    ['C1 CSI in the name', '{"name":"\\u009b31mRex","categoryId":1}', 'name: must not contain control'],
    [
      '101-character name',
      JSON.stringify({ name: 'a'.repeat(101), categoryId: 1 }),
      'name: must be 1 to 100',
    ],
    ['101-emoji name', JSON.stringify({ name: '🐶'.repeat(101), categoryId: 1 }), 'name: must be 1 to 100'],
    ['numeric name', '{"name":5,"categoryId":1}', 'name: must be a string'],
    ['null name', '{"name":null,"categoryId":1}', 'name: must be a string'],
    ['string categoryId', '{"name":"Rex","categoryId":"1"}', 'categoryId: must be an integer'],
    ['fractional categoryId', '{"name":"Rex","categoryId":1.5}', 'categoryId: must be an integer'],
    ['zero categoryId', '{"name":"Rex","categoryId":0}', 'categoryId: must be an integer from 1'],
    ['negative categoryId', '{"name":"Rex","categoryId":-1}', 'categoryId: must be an integer from 1'],
    [
      'categoryId above int64',
      '{"name":"Rex","categoryId":9223372036854775808}',
      'categoryId: must be an integer',
    ],
    ['huge categoryId', '{"name":"Rex","categoryId":1e400}', 'categoryId: must be an integer'],
    ['unknown status', '{"name":"Rex","categoryId":1,"status":"lost"}', 'status: must be one of'],
    ['null status', '{"name":"Rex","categoryId":1,"status":null}', 'status: must be one of'],
    ['client-sent id', '{"id":5,"name":"Rex","categoryId":1}', 'id: unknown field'],
    ['unknown field', '{"name":"Rex","categoryId":1,"colour":"red"}', 'colour: unknown field'],
    ['__proto__ field', '{"name":"Rex","categoryId":1,"__proto__":{"x":1}}', '__proto__: unknown field'],
    ['array body', '[{"name":"Rex","categoryId":1}]', 'body: must be a JSON object'],
    ['null body', 'null', 'body: must be a JSON object'],
    ['string body', '"Rex"', 'body: must be a JSON object'],
    ['malformed JSON', '{"name":"Rex",', 'body: is not valid JSON'],
    ['trailing garbage', '{"name":"Rex","categoryId":1} x', 'body: is not valid JSON'],
    ['empty body', '', 'body: is required'],
    ['lone surrogate in the name', '{"name":"\\ud800","categoryId":1}', 'name: must be valid Unicode text'],
    ['JSON nested 8,000 deep', '['.repeat(8_000) + ']'.repeat(8_000), 'body: is nested too deeply'],
  ];

  it.each(invalidBodies)(
    'rejects a %s with 400 validation_error and stores nothing',
    async (_case, body, message) => {
      const before = await petCount();
      const response = await invoke(createPet, createPetRequest(body));
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ code: 'validation_error', message: expect.any(String), status: 400 });
      expect((response.json as { message: string }).message).toContain(message);
      expect(await petCount()).toBe(before);
    },
  );

  it('names at most ten problems in one message', async () => {
    const fields = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`field${i}`, i]));
    const response = await invoke(createPet, createPetRequest({ name: 'Rex', categoryId: 1, ...fields }));
    const { message } = response.json as { message: string };
    expect(message).toMatch(/^field0: unknown field; .*; and 990 more$/);
    expect(message.length).toBeLessThan(300);
  });

  it('rejects bytes that are not UTF-8 with 400', async () => {
    const response = await invoke(createPet, createPetRequest(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])));
    expect(response.json).toEqual({
      code: 'validation_error',
      message: 'body: is not valid UTF-8',
      status: 400,
    });
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['another charset', 'application/json; charset=latin1'],
    ['a json-like type', 'application/json-patch+json'],
    ['no content type', ''],
  ])('answers 415 unsupported_media_type for %s', async (_case, contentType) => {
    const response = await invoke(
      createPet,
      createPetRequest({ name: 'Rex', categoryId: 1 }, { contentType }),
    );
    expect(response.status).toBe(415);
    expect(response.json).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

  const pet = JSON.stringify({ name: 'Zipped', categoryId: 1 });
  it.each([
    ['a gzip body', 'gzip', gzipSync(pet)],
    ['a plain body labelled br', 'br', pet],
    ['a plain body labelled deflate', 'deflate', pet],
    ['a coding in capitals', 'GZIP', pet],
    ['identity followed by a coding', 'identity, gzip', pet],
    ['an unknown coding', 'x-rot13', pet],
    ['an empty body with a coding', 'gzip', ''],
  ])(
    'answers 415 with Accept-Encoding: identity for %s, and stores nothing',
    async (_case, contentEncoding, body) => {
      const before = await petCount();
      const response = await invoke(
        createPet,
        createPetRequest(body, { headers: [['Content-Encoding', contentEncoding]] }),
      );
      expect(response.status).toBe(415);
      expect(response.json).toEqual({
        code: 'unsupported_media_type',
        message: expect.stringMatching(/^Content-Encoding: /),
        status: 415,
      });
      expect(response.headers['Accept-Encoding']).toBe('identity');
      expect(await petCount()).toBe(before);
    },
  );

  it('answers 415 when any of repeated Content-Encoding headers, in any spelling, is a coding', async () => {
    for (const headers of [
      [
        ['Content-Encoding', 'gzip'],
        ['Content-Encoding', 'identity'],
      ],
      [
        ['content-encoding', 'br'],
        ['Content-Encoding', 'identity'],
      ],
    ] as [string, string][][]) {
      const response = await invoke(createPet, createPetRequest(pet, { headers }));
      expect(response.status).toBe(415);
    }
  });

  it('answers 400 for Content-Type sent twice, which a proxy in front could read differently', async () => {
    const before = await petCount();
    const response = await invoke(
      createPet,
      createPetRequest(pet, { headers: [['content-type', 'text/plain']] }),
    );
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      code: 'validation_error',
      message: 'Content-Type: must be sent once, not 2 times',
      status: 400,
    });
    expect(await petCount()).toBe(before);
  });

  it('accepts identity, in any case, as a list with spaces and empty elements', async () => {
    for (const contentEncoding of ['identity', 'IDENTITY', ' identity , Identity', 'identity,,', '']) {
      const response = await invoke(
        createPet,
        createPetRequest(pet, { headers: [['Content-Encoding', contentEncoding]] }),
      );
      expect(response.status).toBe(201);
      expect(response.headers['Accept-Encoding']).toBeUndefined();
    }
  });

  it('answers 413 before 415 for a content-encoded body over 16 KiB, and 415 before 400', async () => {
    const big = Buffer.alloc(16 * 1024 + 1, 'x');
    const tooLarge = await invoke(
      createPet,
      createPetRequest(big, { headers: [['Content-Encoding', 'gzip']] }),
    );
    expect(tooLarge.status).toBe(413);
    const invalid = await invoke(createPet, createPetRequest('{', { headers: [['Content-Encoding', 'br']] }));
    expect(invalid.status).toBe(415);
  });

  it('answers 413 payload_too_large past 16 KiB, before checking the media type', async () => {
    const body = JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(16 * 1024) });
    const json = await invoke(createPet, createPetRequest(body));
    expect(json.json).toMatchObject({ code: 'payload_too_large', status: 413 });
    const text = await invoke(createPet, createPetRequest(body, { contentType: 'text/plain' }));
    expect(text.status).toBe(413);
  });

  it('accepts a body of exactly 16 KiB (it then fails validation, not the size check)', async () => {
    const skeleton = JSON.stringify({ name: '', categoryId: 1 });
    const body = JSON.stringify({ name: ' '.repeat(16 * 1024 - skeleton.length), categoryId: 1 });
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    expect((await invoke(createPet, createPetRequest(body))).status).toBe(400);
  });

  it('puts the security headers on errors too', async () => {
    const response = await invoke(createPet, createPetRequest('{'));
    expect(response.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
  });
});
