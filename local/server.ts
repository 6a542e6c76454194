// The local API: a plain Node HTTP server in front of a local API Gateway (local/api-gateway.ts).
// It keeps at most one byte past the body limit (the function then answers 413), answers even
// requests Node cannot parse with an Error object, logs one access line per request, and closes
// cleanly.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '#shared/api-error.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import { MAX_REQUEST_BYTES } from '#local/api-gateway.ts';
import type { ApiGateway } from '#local/api-gateway.ts';

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
};

export type LocalServer = { url: string; close(): Promise<void> };

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

/** Node refuses a request it cannot parse (bad method, URL or headers) before any handler runs. */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable) return;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'request: the URL and headers are larger than 16 KiB'
      : 'request: is not a valid HTTP/1.1 request (method, URL or headers)';
  const { statusCode, headers, body } = errorResponse(new ApiError('validation_error', message));
  const head = Object.entries({ ...headers, 'Content-Length': Buffer.byteLength(body), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${statusCode} Bad Request\r\n${head}\r\n\r\n${body}`);
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { gateway, port = 3000, host = '127.0.0.1', accessLog = () => undefined } = options;

  async function serve(request: IncomingMessage, response: ServerResponse) {
    const started = performance.now();
    const requestId = randomUUID();
    const { body, bodyBytes } = await readBody(request);
    const result = await gateway({
      method: request.method ?? 'GET',
      target: request.url ?? '/',
      headers: pairs(request.rawHeaders),
      body,
      bodyBytes,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      requestId,
    });
    response.writeHead(result.statusCode, {
      ...result.headers,
      'Content-Length': Buffer.byteLength(result.body),
      'x-amzn-RequestId': requestId,
    });
    response.end(result.body);
    accessLog({
      method: request.method ?? '',
      path: (request.url ?? '').split('?')[0] ?? '',
      status: result.statusCode,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      requestId,
    });
  }

  const server = createServer({ requireHostHeader: false }, (request, response) => {
    // A request cut off mid-body (the client went away) has no one left to answer.
    serve(request, response).catch(() => response.destroy());
  });
  server.on('clientError', answerUnparsableRequest);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function pairs(rawHeaders: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    result.push([rawHeaders[i] ?? '', rawHeaders[i + 1] ?? '']);
  return result;
}
