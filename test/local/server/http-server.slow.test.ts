// The HTTP tests that only a local server allows: a revoked key (revoking needs the table), the edges
// of HTTP/1.1 on a raw socket (requests Node cannot parse, Expect, absolute-form targets, the Host
// rules, CONNECT), an upload over API Gateway's 10 MiB, and the graceful shutdown of the server and of
// `npm start` on SIGTERM under load. The rest of the HTTP contract is the contract suite's (test/e2e/).
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { hashApiKey } from '#shared/store/api-key-store.ts';
import type { GatewayRequest } from '#local/api-gateway/gateway.ts';
import { startDynamoDbProxy } from '#local/dynamodb/proxy.ts';
import { SHUTDOWN_GRACE_MS, startLocalServer } from '#local/server/http-server.ts';
import { useTestServer } from '#test/support/http.ts';
import { openApiSchemaErrors } from '#test/support/openapi-contract.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import { testApiKeys } from '#test/support/test-table.ts';

const { request, running } = useTestServer();

/**
 * The length of the first final (not 1xx) response in `bytes` when all of it has arrived. A
 * response without Content-Length ends with the connection.
 */
function completeResponseLength(bytes: Buffer): number | undefined {
  let start = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', start);
    if (headEnd === -1) return undefined;
    const head = bytes.subarray(start, headEnd).toString();
    if (/^HTTP\/1\.1 1\d\d /.test(head)) {
      start = headEnd + 4;
      continue;
    }
    const length = /^content-length: *(\d+)$/im.exec(head)?.[1];
    if (length === undefined) return undefined;
    const end = headEnd + 4 + Number(length);
    return bytes.length >= end ? end : undefined;
  }
}

/** The whole responses in what a connection received, one after the other. */
function responsesOf(received: string): string[] {
  const responses: string[] = [];
  let rest = Buffer.from(received);
  for (
    let length = completeResponseLength(rest);
    length !== undefined;
    length = completeResponseLength(rest)
  ) {
    responses.push(rest.subarray(0, length).toString());
    rest = rest.subarray(length);
  }
  return responses;
}

/**
 * Sends `request` on a new connection and reads one whole response. The connection stays open
 * for writing: Node's server takes a client's half-close as the request's abort.
 */
function raw(request: string | Buffer, url = running.server.url): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (completeResponseLength(received) !== undefined) socket.destroy();
    });
    socket.on('close', () => resolve(received.toString()));
    socket.on('error', reject);
  });
}

/** A connection kept open: what came back so far, a wait for more, its close and how it closed. */
function openConnection(url: string) {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  let received = '';
  let error: string | undefined;
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', (cause: NodeJS.ErrnoException) => (error = cause.code));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return {
    /** The error the connection met (ECONNRESET for a reset), if any. */
    error: () => error,
    write: (text: string) => socket.write(text),
    closed,
    received: () => received,
    async waitFor(pattern: RegExp) {
      for (let waited = 0; !pattern.test(received); waited += 10) {
        if (waited > 5_000) throw new Error(`Timed out waiting for ${pattern} in: ${received}`);
        await sleep(10);
      }
    },
  };
}

/** The code of the error a new connection to `url` gets, or undefined when it is accepted. */
function connectionError(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code));
  });
}

const statusLineOf = (answer: string) => answer.slice(0, answer.indexOf('\r\n'));
const headOf = (answer: string) => answer.slice(0, answer.indexOf('\r\n\r\n'));
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
/** Every answer of a test's raw request must be an Error object the document describes. */
function expectErrorObject(answer: string, status: number, code: string, message: RegExp | string) {
  expect(statusLineOf(answer)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(headOf(answer)).toContain('Content-Type: application/json');
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  expect(openApiSchemaErrors('Error', body)).toEqual([]);
  expect(JSON.parse(body)).toEqual({ code, message: expect.stringMatching(message), status });
}

const get = (target: string, headers: string) => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;
const authorized = () => `Host: x\r\nAuthorization: Bearer ${running.server.apiKey}\r\n`;

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

describe('a 304', () => {
  it("has no Content-Length: a 304's may only repeat its 200's (RFC 9110, 8.6)", async () => {
    const page = await request('/v1/pets?limit=1');
    const etag = page.headers.get('etag') ?? '';
    const notModified = await request('/v1/pets?limit=1', { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('content-length')).toBeNull();
    expect(page.headers.get('content-length')).toBe(String(Buffer.byteLength(page.text)));
  });
});

describe('requests Node cannot parse, and uploads API Gateway would refuse', () => {
  it.each([
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control character in a header', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
    ['headers over 16 KiB', `GET /v1/pets?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('answers %s with a 400 Error object', async (_case, request) => {
    expectErrorObject(await raw(request), 400, 'validation_error', /^request: /);
  });

  it('answers a Content-Length over API Gateway’s 10 MiB with 413 at once, before any of the body', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${running.server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n`;
    const answer = await raw(head);
    expectErrorObject(answer, 413, 'payload_too_large', /10 MiB/);
    expect(headOf(answer)).toMatch(/^Connection: close$/m);
  });

  it('answers a chunked body that grows past 10 MiB with 413, without reading the rest', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${running.server.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = Buffer.concat([
      Buffer.from(`${(1024 * 1024).toString(16)}\r\n`),
      Buffer.alloc(1024 * 1024, 0x20),
      Buffer.from('\r\n'),
    ]);
    // 11 MiB of chunks, and no last chunk: the answer cannot wait for the end.
    const answer = await raw(Buffer.concat([Buffer.from(head), ...Array.from({ length: 11 }, () => chunk)]));
    expectErrorObject(answer, 413, 'payload_too_large', /10 MiB/);
  });
});

describe('a complete request followed by bytes that are not one', () => {
  const garbage = '\x01\r\n\r\n';

  /** The answers the server sends on one connection, until it closes it. */
  async function exchange(request: string) {
    const connection = openConnection(running.server.url);
    connection.write(request);
    return responsesOf(await connection.closed);
  }

  it('answers the request first, then the 400, then closes: a pet created is a pet the client was told of', async () => {
    const idempotencyKey = `garbage-${Date.now()}`;
    const body = JSON.stringify({ name: 'Followed by garbage', categoryId: 7 });
    const post = `POST /v1/pets HTTP/1.1\r\n${authorized()}Content-Type: application/json\r\nIdempotency-Key: ${idempotencyKey}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const [created, refused, ...rest] = await exchange(post + garbage);
    expect(rest).toEqual([]);
    expect(statusLineOf(created ?? '')).toBe('HTTP/1.1 201 Created');
    const pet = bodyOf(created ?? '') as { id: number; name: string };
    expect(pet.name).toBe('Followed by garbage');
    expectErrorObject(refused ?? '', 400, 'validation_error', /^request: is not a valid HTTP\/1\.1 request/);
    expect(headOf(refused ?? '')).toMatch(/^Connection: close$/m);
    const replayed = await request('/v1/pets', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    });
    expect(replayed.status).toBe(201);
    expect(replayed.json).toEqual(pet);
  });

  it('answers a GET before the garbage with its 200', async () => {
    const [listed, refused] = await exchange(get('/v1/pets', authorized()) + garbage);
    expect(statusLineOf(listed ?? '')).toBe('HTTP/1.1 200 OK');
    expectErrorObject(refused ?? '', 400, 'validation_error', /^request: is not a valid/);
  });
});

describe('requests that arrive too slowly', () => {
  const HEADERS_TIMEOUT_MS = 300;
  const REQUEST_TIMEOUT_MS = 600;

  async function slowServer() {
    const seen: GatewayRequest[] = [];
    const server = await startLocalServer({
      gateway: recordingGateway(seen),
      port: 0,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    return { server, seen };
  }

  it.each([
    ['headers that never end', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n'],
    [
      'a body shorter than its Content-Length',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{"',
    ],
  ])('answers %s 408, and executes nothing', async (_case, partial) => {
    const { server, seen } = await slowServer();
    try {
      const connection = openConnection(server.url);
      connection.write(partial);
      const answer = await connection.closed;
      expectErrorObject(answer, 408, 'validation_error', /^request: not received in time/);
      expect(seen).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('Expect', () => {
  it.each([
    ['no Authorization header', ''],
    ['another scheme', 'Authorization: Basic a2V5\r\n'],
    ['a key the authorizer refuses', 'Authorization: Bearer psk_not-a-key\r\n'],
  ])('answers Expect: foo with %s 401, as any request without a valid key', async (_case, authorization) => {
    const answer = await raw(get('/v1/pets', `Host: x\r\nExpect: foo\r\n${authorization}`));
    expectErrorObject(answer, 401, 'unauthorized', /./);
  });

  it('answers Expect: foo with a valid key 417, and the function never sees the request', async () => {
    const name = `Expected ${Date.now()}`;
    const body = JSON.stringify({ name, categoryId: 1 });
    const answer = await raw(
      `POST /v1/pets HTTP/1.1\r\n${authorized()}Expect: foo\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expectErrorObject(answer, 417, 'expectation_failed', /only 100-continue/);
    expect(headOf(answer)).toMatch(/^x-amzn-RequestId: \S+$/m);
    const listed = await request('/v1/pets?limit=100');
    expect((listed.json as { name: string }[]).map((pet) => pet.name)).not.toContain(name);
  });

  it('still answers Expect: 100-continue with 100 Continue, then serves the request', async () => {
    const body = JSON.stringify({ name: 'Continued', categoryId: 1 });
    const connection = openConnection(running.server.url);
    connection.write(
      `POST /v1/pets HTTP/1.1\r\n${authorized()}Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    await connection.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    connection.write(body);
    await connection.waitFor(/\r\n\r\n.*\r\n\r\n\{.*\}$/s);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});

describe('absolute-form targets', () => {
  it('serves GET http://host/v1/pets as /v1/pets', async () => {
    const answer = await raw(get('http://api.example.com/v1/pets?limit=1', authorized()));
    expect(statusLineOf(answer)).toBe('HTTP/1.1 200 OK');
    expect(Array.isArray(bodyOf(answer))).toBe(true);
  });

  it('passes the path and query on, with the target’s authority as the only Host', async () => {
    const seen: GatewayRequest[] = [];
    const server = await startLocalServer({ gateway: recordingGateway(seen), port: 0 });
    try {
      const first = 'http://api.example.com:8443/v1/pets?limit=5';
      await raw(get(first, 'Host: ignored.example.com\r\n'), server.url);
      await raw(get('HTTPS://API.example.com?x=1', 'Host: y\r\n'), server.url);
      expect(seen.map(({ target, headers }) => ({ target, headers }))).toEqual([
        { target: '/v1/pets?limit=5', headers: [['Host', 'api.example.com:8443']] },
        { target: '/?x=1', headers: [['Host', 'API.example.com']] },
      ]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['without a host', 'http:///v1/pets'],
    ['with user info', 'http://user@api.example.com/v1/pets'],
    ['of another scheme', 'ftp://api.example.com/v1/pets'],
    ['with a fragment', 'http://api.example.com/v1/pets#top'],
    ['with a port that is not a number', 'http://api.example.com:https/v1/pets'],
  ])('answers one %s 400', async (_case, target) => {
    const answer = await raw(get(target, authorized()));
    expectErrorObject(answer, 400, 'validation_error', /^request: an absolute target must be/);
  });
});

describe('the Host header, and the headers that must come once', () => {
  const postWith = (headers: string) =>
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: 2\r\n\r\n{}`;
  it.each([
    ['an HTTP/1.1 request without Host', get('/v1/pets', ''), /^Host: is required/],
    ['two Host headers', get('/v1/pets', 'Host: a\r\nhost: a\r\n'), /^Host: must be sent once, not 2 times$/],
    [
      'two Content-Type headers',
      postWith('Content-Type: text/plain\r\nContent-Type: application/json\r\n'),
      /^Content-Type: must be sent once, not 2 times$/,
    ],
    ['two Content-Length headers', postWith('Content-Length: 2\r\n'), /^Content-Length: must be sent once$/],
    ['a Host that is not an authority', get('/v1/pets', 'Host: a/b\r\n'), /^Host: must be a host name/],
  ])('answers %s 400', async (_case, request, message) => {
    expectErrorObject(await raw(request), 400, 'validation_error', message);
  });

  it('answers two Authorization headers 400, even a bad key followed by a good one', async () => {
    const keys = `Authorization: Bearer bad\r\nauthorization: Bearer ${running.server.apiKey}\r\n`;
    const answer = await raw(get('/v1/pets', `Host: x\r\n${keys}`));
    expectErrorObject(answer, 400, 'validation_error', /^Authorization: must be sent once, not 2 times$/);
  });

  it('serves an HTTP/1.0 request without Host', async () => {
    const answer = await raw(
      `GET /v1/pets HTTP/1.0\r\nAuthorization: Bearer ${running.server.apiKey}\r\n\r\n`,
    );
    expect(statusLineOf(answer)).toBe('HTTP/1.1 200 OK');
  });
});

describe('CONNECT', () => {
  it('answers a 400 Error object and closes the connection', async () => {
    const answer = await raw('CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n');
    expectErrorObject(answer, 400, 'validation_error', /^request: CONNECT is not served/);
    expect(headOf(answer)).toContain('Connection: close');
  });
});

/** A gateway that answers 200 at once and keeps what it was given. */
function recordingGateway(seen: GatewayRequest[]) {
  return async (request: GatewayRequest): Promise<APIGatewayProxyResult> => {
    seen.push(request);
    return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{}' };
  };
}

/** A gateway that answers /slow only when released, anything else at once. */
function heldGateway() {
  const released = Promise.withResolvers<undefined>();
  const slowArrived = Promise.withResolvers<undefined>();
  async function gateway(request: GatewayRequest): Promise<APIGatewayProxyResult> {
    if (request.target === '/slow') {
      slowArrived.resolve(undefined);
      await released.promise;
    }
    return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"done":true}' };
  }
  return { gateway, release: () => released.resolve(undefined), slowArrived: slowArrived.promise };
}

describe('close()', () => {
  it('refuses new connections and answers the request in flight in full', async () => {
    const held = heldGateway();
    const server = await startLocalServer({ gateway: held.gateway, port: 0 });
    const busy = openConnection(server.url);
    busy.write(get('/slow', 'Host: x\r\n'));
    await held.slowArrived;

    const closing = server.close();
    expect(server.close()).toBe(closing);
    expect(await connectionError(server.url)).toBe('ECONNREFUSED');
    held.release();
    const answer = await busy.closed;
    await closing;
    expect(statusLineOf(answer)).toBe('HTTP/1.1 200 OK');
    expect(headOf(answer)).toMatch(/^Connection: close$/m);
    expect(answer.endsWith('{"done":true}')).toBe(true);
  });

  it('answers a request sent on an idle keep-alive connection just after, and closes idle ones cleanly after the linger', async () => {
    const server = await startLocalServer({ gateway: heldGateway().gateway, port: 0, drainLingerMs: 300 });
    const [reused, idle] = [openConnection(server.url), openConnection(server.url)];
    for (const connection of [reused, idle]) {
      connection.write(get('/fast', 'Host: x\r\n'));
      await connection.waitFor(/\{"done":true\}$/);
    }
    const closing = server.close();
    // Sent before the client could know of the close: answered, and the connection's last.
    reused.write(get('/fast', 'Host: x\r\n'));
    const [, second] = responsesOf(await reused.closed);
    expect(statusLineOf(second ?? '')).toBe('HTTP/1.1 200 OK');
    expect(headOf(second ?? '')).toMatch(/^Connection: close$/m);
    // The idle one is closed after the linger, with a FIN rather than a reset.
    await idle.closed;
    await closing;
    expect([reused.error(), idle.error()]).toEqual([undefined, undefined]);
  });

  it('cuts what is still in flight after the grace period, then resolves', async () => {
    const held = heldGateway();
    const server = await startLocalServer({ gateway: held.gateway, port: 0, shutdownGraceMs: 300 });
    const busy = openConnection(server.url);
    busy.write(get('/slow', 'Host: x\r\n'));
    await held.slowArrived;
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await busy.closed).toBe('');
    held.release();
  });

  it('keeps a 10 s grace period by default', () => {
    expect(SHUTDOWN_GRACE_MS).toBe(10_000);
  });
});

describe('npm start on SIGTERM under load', () => {
  afterEach(killScripts);

  /** Requests in flight when the signal comes. */
  const IN_FLIGHT = 30;
  /** How long each DynamoDB call is held: a request makes two or three, one after the other. */
  const HOLD_MS = 1_000;

  it('answers every request it had accepted, refuses new connections and exits 0 in time', async () => {
    const key = 'k_shutdown';
    let holding = false;
    let keyLookups = 0;
    // In front of the run's DynamoDB: once `holding`, every call waits before it is forwarded, and
    // each request's first call (the authorizer's lookup of the key) is counted.
    const dynamoDb = await startDynamoDbProxy(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '', {
      async answer({ operation, body }) {
        if (!holding) return undefined;
        if (operation === 'GetItem' && body.toString().includes(hashApiKey(key))) keyLookups++;
        await sleep(HOLD_MS);
        return undefined;
      },
    });
    try {
      const run = runScript('local/start.ts', [], {
        PORT: '0',
        PETSTORE_API_KEY: key,
        AWS_ENDPOINT_URL_DYNAMODB: dynamoDb.endpoint,
        PETSTORE_TABLE_NAME: `petstore-shutdown-${Date.now()}`,
      });
      const url = await bannerUrl(run);
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      // One request first, so that the client also holds an idle keep-alive connection.
      expect((await fetch(`${url}/v1/pets`, { headers })).status).toBe(200);
      holding = true;
      const answers = Array.from({ length: IN_FLIGHT }, async (_, i) => {
        const create = i % 2 === 1;
        const response = await fetch(`${url}/v1/pets`, {
          method: create ? 'POST' : 'GET',
          headers,
          body: create ? JSON.stringify({ name: `Drained ${i}`, categoryId: i + 1 }) : undefined,
        });
        const body: unknown = await response.json();
        return { create, i, status: response.status, connection: response.headers.get('connection'), body };
      });
      for (let waited = 0; keyLookups < IN_FLIGHT; waited += 10) {
        if (waited > 10_000) throw new Error(`${keyLookups} of ${IN_FLIGHT} requests arrived`);
        await sleep(10);
      }

      const signalled = performance.now();
      run.child.kill('SIGTERM');
      await run.waitFor(/SIGTERM: shutting down/);
      expect(await connectionError(url)).toBe('ECONNREFUSED');
      for (const { create, i, ...answer } of await Promise.all(answers)) {
        // Each answer, sent during the drain, is its connection's last.
        expect(answer).toMatchObject(
          create
            ? { status: 201, connection: 'close', body: { name: `Drained ${i}` } }
            : { status: 200, connection: 'close', body: expect.any(Array) },
        );
      }
      expect(await run.exited).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(SHUTDOWN_GRACE_MS);
      // Every request was logged with the answer its client got: none with a 5xx nobody received.
      expect(run.output().match(/"status":20[01]/g)).toHaveLength(IN_FLIGHT + 1);
      expect(run.output()).not.toMatch(/"status":5\d\d/);
    } finally {
      await dynamoDb.close();
    }
  });
});
