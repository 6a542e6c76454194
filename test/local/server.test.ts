import { connect } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { useTestServer } from '#test/support/http.ts';
import { testApiKeys } from '#test/support/test-table.ts';
import type { HttpResponse } from '#test/support/http.ts';

const { request, running } = useTestServer();

const create = (body: unknown) => request('/v1/pets', { method: 'POST', body: JSON.stringify(body) });
const expectError = (response: HttpResponse, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.json).toEqual({ code, message: expect.any(String), status });
};

describe('authentication', () => {
  it('answers 401 without an Authorization header, on known and unknown paths', async () => {
    for (const path of ['/v1/pets', '/v1/pets/1', '/v1/nothing', '/', '/v2/pets']) {
      expectError(await request(path, { key: null }), 401, 'unauthorized');
    }
    expectError(await request('/v1/pets', { method: 'DELETE', key: null }), 401, 'unauthorized');
  });

  it.each([
    ['another scheme', (key: string) => `Basic ${key}`],
    ['an empty token', () => 'Bearer '],
    ['no scheme', (key: string) => key],
    ['an unknown key', () => 'Bearer psk_unknown'],
    ['the key in another case', (key: string) => `Bearer ${key.toUpperCase()}`],
  ])('answers 401 for %s', async (_case, header) => {
    expectError(
      await request('/v1/pets', { headers: { Authorization: header(running.server.apiKey) } }),
      401,
      'unauthorized',
    );
  });

  it('accepts the scheme in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const response = await request('/v1/pets', {
        headers: { Authorization: `${scheme} ${running.server.apiKey}` },
      });
      expect(response.status).toBe(200);
    }
  });

  it('refuses a revoked key at once', async () => {
    const issued = await testApiKeys.issue('short-lived');
    expect((await request('/v1/pets', { key: issued.key })).status).toBe(200);
    await testApiKeys.revoke(issued.id);
    expectError(await request('/v1/pets', { key: issued.key }), 401, 'unauthorized');
    expect((await testApiKeys.list()).find((key) => key.id === issued.id)?.revokedAt).toBeDefined();
  });
});

describe('routes', () => {
  it('answers 404 not_found for unknown paths', async () => {
    for (const path of ['/v1/nothing', '/v1/pets/1/owner', '/v1', '/', '/pets', '/v2/pets']) {
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

describe('pets over HTTP', () => {
  it('creates, reads and lists an animal', async () => {
    const created = await create({ name: 'Rex', categoryId: 5, status: 'pending' });
    expect(created.status).toBe(201);
    const pet = created.json as Pet;
    expect(created.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
    const read = await request(created.headers.get('location') ?? '');
    expect(read.json).toEqual(pet);
    expect(read.headers.get('deprecation')).toBe('@1767225600');
    expect(read.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const listed = await request('/v1/pets?status=pending&limit=100');
    expect(listed.json).toContainEqual(pet);
  });

  it('keeps int64 values exact in the raw response text', async () => {
    const body = '{"name":"Big","categoryId":9223372036854775807}';
    const created = await request('/v1/pets', { method: 'POST', body });
    expect(created.text).toMatch(/"categoryId":9223372036854775807[,}]/);
    const location = created.headers.get('location') ?? '';
    expect((await request(location)).text).toMatch(/"categoryId":9223372036854775807[,}]/);
  });

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
    expectError(await request('/v1/pets', { method: 'POST', body: '{"name":""}' }), 400, 'validation_error');
  });

  it('answers 413 for a body over 16 KiB', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(17_000), categoryId: 1 });
    expectError(await request('/v1/pets', { method: 'POST', body }), 413, 'payload_too_large');
  });

  it('follows Link headers through every animal exactly once', async () => {
    for (let i = 0; i < 12; i++)
      expect((await create({ name: `Walker ${i}`, categoryId: 9, status: 'sold' })).status).toBe(201);
    const all = (await request('/v1/pets?status=sold&limit=100')).json as Pet[];
    const seen: Pet[] = [];
    let next: string | undefined = '/v1/pets?status=sold&limit=5';
    while (next) {
      const page = await request(next);
      expect(page.status).toBe(200);
      seen.push(...(page.json as Pet[]));
      next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
      if (next) expect(next.startsWith('/v1/pets?')).toBe(true);
    }
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(12);
  });

  it('gives 100 parallel creates distinct ids', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => create({ name: `Par ${i}`, categoryId: 2 })),
    );
    expect(responses.every((response) => response.status === 201)).toBe(true);
    expect(new Set(responses.map((response) => (response.json as Pet).id)).size).toBe(100);
  });
});

describe('requests Node cannot parse, and uploads API Gateway would refuse', () => {
  async function raw(request: string | Buffer): Promise<string> {
    const { port } = new URL(running.server.url);
    return new Promise((resolve, reject) => {
      let answer = '';
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it.each([
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control character in a header', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
    ['headers over 16 KiB', `GET /v1/pets?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('answers %s with a 400 Error object', async (_case, request) => {
    const answer = await raw(request);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Content-Type: application/json');
    expect(bodyOf(answer)).toEqual({
      code: 'validation_error',
      message: expect.stringMatching(/^request: /),
      status: 400,
    });
  });

  it('answers a body over API Gateway’s 10 MiB with 413, without the functions', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${running.server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n`;
    const answer = await raw(Buffer.concat([Buffer.from(head), Buffer.alloc(11 * 1024 * 1024, 0x20)]));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(bodyOf(answer)).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('challenges for a bearer token on 401', async () => {
    const response = await request('/v1/pets', { key: null });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});
