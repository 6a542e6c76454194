// The local API: a plain Node HTTP server in front of a local API Gateway (local/api-gateway.ts).
// It keeps at most one byte past the body limit (the function then answers 413), answers the edges
// of HTTP/1.1 with an Error object too (local/http-edges.ts), logs one access line per request, and
// closes without cutting a request it has accepted.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '#shared/api-error.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import { MAX_REQUEST_BYTES } from '#local/api-gateway.ts';
import type { ApiGateway } from '#local/api-gateway.ts';
import { answerConnect, answerUnparsableRequest, routedRequest } from '#local/http-edges.ts';

export type AccessLogEntry = {
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
};

export type LocalServerOptions = {
  gateway: ApiGateway;
  port?: number;
  host?: string;
  accessLog?: (entry: AccessLogEntry) => void;
  /** SHUTDOWN_GRACE_MS unless a test needs a shorter one. */
  shutdownGraceMs?: number;
};

export type LocalServer = {
  url: string;
  /**
   * Stops taking connections, answers the requests in flight (within the grace period) and
   * resolves once every connection is closed. Calling it again returns the same promise.
   */
  close(): Promise<void>;
};

/** How long close() lets the requests in flight finish before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Past this, a client still sending is cut off instead of being answered. */
const MAX_DRAINED_BYTES = 10 * MAX_REQUEST_BYTES;

/**
 * Reads the whole request (so that the client, done sending, reads a clean answer) but keeps only
 * one byte past the body limit: enough for the functions' 413.
 */
function readBody(request: IncomingMessage): Promise<{ body: Buffer; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let totalBytes = 0;
    request.on('data', (chunk: Buffer) => {
      totalBytes += chunk.length;
      if (totalBytes > MAX_DRAINED_BYTES) request.destroy(new Error('Request body without end'));
      if (keptBytes <= MAX_BODY_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
    });
    request.on('end', () =>
      resolve({
        body: Buffer.concat(kept).subarray(0, MAX_BODY_BYTES + 1),
        bodyBytes: totalBytes,
      }),
    );
    request.on('error', reject);
  });
}

/**
 * Closes the server as a deployment would drain an instance: no new connection from the first
 * moment, idle keep-alive connections closed at once (Node's close() does that), each request in
 * flight answered in full, and every answer from then on the last of its connection. Past the
 * grace period, whatever is still open is cut.
 */
function drainOnClose(server: Server, graceMs: number) {
  let draining = false;
  let closed: Promise<void> | undefined;
  // The server's own list leaves out the sockets it handed over (CONNECT): these are all of them.
  const sockets = new Set<Duplex>();
  server.on('connection', (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  function close() {
    closed ??= new Promise<void>((resolve) => {
      draining = true;
      const cutOff = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, graceMs);
      server.close(() => {
        clearTimeout(cutOff);
        resolve();
      });
    });
    return closed;
  }
  return { close, isDraining: () => draining };
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const {
    gateway,
    port = 3000,
    host = '127.0.0.1',
    accessLog = () => undefined,
    shutdownGraceMs = SHUTDOWN_GRACE_MS,
  } = options;

  async function serve(request: IncomingMessage, response: ServerResponse, expectation?: string) {
    const started = performance.now();
    const requestId = randomUUID();
    const { body, bodyBytes } = await readBody(request);
    const routed = routedRequest(request);
    const result =
      routed instanceof ApiError
        ? errorResponse(routed)
        : await gateway({
            method: request.method ?? 'GET',
            target: routed.target,
            headers: routed.headers,
            body,
            bodyBytes,
            sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
            requestId,
            expectation,
          });
    response.writeHead(result.statusCode, {
      ...result.headers,
      'Content-Length': Buffer.byteLength(result.body),
      'x-amzn-RequestId': requestId,
      // Node would keep the connection alive, and so hold its close() up until the keep-alive
      // timeout; this way the client knows not to send another request on it, and Node closes it.
      ...(drain.isDraining() && { Connection: 'close' }),
    });
    response.end(result.body);
    accessLog({
      method: request.method ?? '',
      path: (routed instanceof ApiError ? (request.url ?? '') : routed.target).split('?')[0] ?? '',
      status: result.statusCode,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      requestId,
    });
  }

  function answer(request: IncomingMessage, response: ServerResponse, expectation?: string) {
    // A request cut off mid-body (the client went away) has no one left to answer.
    serve(request, response, expectation).catch(() => response.destroy());
  }

  // Without requireHostHeader: false, Node answers a missing Host with a bare 400 of its own.
  const server = createServer({ requireHostHeader: false }, answer);
  // Node answers any Expect but 100-continue with a bare 417 unless it is listened for; the
  // gateway answers it instead, after the authorizer, so that a request without a key gets its 401.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    answer(request, response, request.headers.expect ?? ''),
  );
  server.on('clientError', answerUnparsableRequest);
  server.on('connect', answerConnect);
  const drain = drainOnClose(server, shutdownGraceMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${urlHost}:${address.port}`, close: drain.close };
}
