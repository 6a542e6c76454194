// The HTTP tests that only an in-process server on the test file's table allows: a revoked key
// (revoking needs the table), requests Node cannot parse (sent on a raw socket) and an upload over
// API Gateway's 10 MiB. The rest of the HTTP contract is the end-to-end suite
// (test/e2e/contract-suite.ts), which runs against any base URL: `npm start` in test/e2e/local.test.ts.
import { connect } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { useTestServer } from '#test/support/http.ts';
import { testApiKeys } from '#test/support/test-table.ts';

const { request, running } = useTestServer();

describe('authentication', () => {
  it('refuses a revoked key at once', async () => {
    const issued = await testApiKeys.issue('short-lived');
    expect((await request('/v1/pets', { key: issued.key })).status).toBe(200);
    await testApiKeys.revoke(issued.id);
    const refused = await request('/v1/pets', { key: issued.key });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(refused.json).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
    expect((await testApiKeys.list()).find((key) => key.id === issued.id)?.revokedAt).toBeDefined();
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
});
