// The local API: a plain Node HTTP server in front of a local API Gateway. It keeps at most one byte past
// the body limit (the function then answers 413) and reads nothing past the gateway's, answers the edges
// of HTTP/1.1 with an Error object too, logs one access line per request, and closes without cutting a
// request it has accepted.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '#shared/api-error.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import { MAX_REQUEST_BYTES } from '#local/api-gateway/gateway.ts';
import type { ApiGateway } from '#local/api-gateway/gateway.ts';
import { DRAIN_LINGER_MS, trackConnections } from '#local/server/connections.ts';
import {
  answerConnect,
  answerUnparsableRequest,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  routedRequest,
} from '#local/server/http-edges.ts';

type AccessLogEntry = {
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
  /** SHUTDOWN_GRACE_MS, DRAIN_LINGER_MS and the request timeouts, unless a test needs shorter ones. */
  shutdownGraceMs?: number;
  drainLingerMs?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
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

/**
 * Reads the whole request (so that the client, done sending, reads a clean answer) but keeps only
 * one byte past the body limit: enough for the functions' 413. It stops reading past the gateway's
 * limit, which is then answered at once.
 */
function readBody(request: IncomingMessage): Promise<{ body: Buffer; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let totalBytes = 0;
    const done = () =>
      resolve({ body: Buffer.concat(kept).subarray(0, MAX_BODY_BYTES + 1), bodyBytes: totalBytes });
    request.on('data', (chunk: Buffer) => {
      totalBytes += chunk.length;
      if (keptBytes <= MAX_BODY_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
      if (totalBytes > MAX_REQUEST_BYTES) {
        request.pause();
        done();
      }
    });
    request.on('end', done);
    request.on('error', reject);
  });
}

/** A Content-Length past the gateway's limit: the request is answered without reading its body. */
function declaredTooLarge(request: IncomingMessage) {
  const declared = Number(request.headers['content-length'] ?? 0);
  return declared > MAX_REQUEST_BYTES ? { body: Buffer.alloc(0), bodyBytes: declared } : undefined;
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const {
    gateway,
    port = 3000,
    host = '127.0.0.1',
    accessLog = () => undefined,
    shutdownGraceMs = SHUTDOWN_GRACE_MS,
    drainLingerMs = DRAIN_LINGER_MS,
    headersTimeoutMs = HEADERS_TIMEOUT_MS,
    requestTimeoutMs = REQUEST_TIMEOUT_MS,
  } = options;

  async function serve(request: IncomingMessage, response: ServerResponse, expectation?: string) {
    const started = performance.now();
    const requestId = randomUUID();
    const tooLarge = declaredTooLarge(request);
    const { body, bodyBytes } = tooLarge ?? (await readBody(request));
    // The connection was closed for good while the request arrived: its client will read no answer.
    if (request.socket.writableEnded) return response.destroy();
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
    const payload = Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
    response.writeHead(result.statusCode, {
      ...result.headers,
      // RFC 9110 (8.6): a 304's Content-Length, if any, is its 200's; none is simpler.
      ...(result.statusCode !== 304 && { 'Content-Length': payload.length }),
      'x-amzn-RequestId': requestId,
      // API Gateway's extendedRequestId, which the event carries too: the id the saved queries take.
      'x-amz-apigw-id': requestId,
      // While draining, the client knows not to send another request on the connection, and Node
      // closes it. A body left unread cannot be skipped over to reach the next request.
      ...((connections.isDraining() || !request.complete) && { Connection: 'close' }),
    });
    response.end(payload);
    accessLog({
      method: request.method ?? '',
      path: (routed instanceof ApiError ? (request.url ?? '') : routed.target).split('?')[0] ?? '',
      status: result.statusCode,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      requestId,
    });
  }

  function answer(request: IncomingMessage, response: ServerResponse, expectation?: string) {
    connections.hold(request, response);
    // A request cut off mid-body (the client went away) has no one left to answer.
    serve(request, response, expectation).catch(() => response.destroy());
  }

  const server = createServer(
    {
      // Without it, Node answers a missing Host with a bare 400 of its own.
      requireHostHeader: false,
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // How often Node looks for late requests: often enough for the 408 to come on time.
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs / 4),
    },
    answer,
  );
  const connections = trackConnections(server, { graceMs: shutdownGraceMs, lingerMs: drainLingerMs });
  // Node answers any Expect but 100-continue with a bare 417 unless it is listened for; the
  // gateway answers it instead, after the authorizer, so that a request without a key gets its 401.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    answer(request, response, request.headers.expect ?? ''),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    void connections
      .completeRequestsAnswered(socket)
      .then(() => answerUnparsableRequest(error, socket, { headersTimeoutMs, requestTimeoutMs }));
  });
  server.on('connect', answerConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${urlHost}:${address.port}`, close: connections.close };
}

/** The server on this host and port, with one JSON access-log line per request on stdout. */
export const listen = (gateway: ApiGateway, { port, host }: { port: number; host: string }) =>
  startLocalServer({
    gateway,
    port,
    host,
    accessLog: (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })),
  });
