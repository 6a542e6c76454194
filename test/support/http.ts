// A client for the HTTP tests: real requests with fetch (or node:http, to see the bytes on the wire:
// fetch decompresses) to a real server, each response checked against openapi.json. The local test
// server and its table are imported only when a test starts one, so that tests aimed at another base
// URL load neither.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll } from '@jest/globals';
import { assertResponseMatchesOpenApi } from '#test/support/openapi-contract.ts';

export type HttpResponse = {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  /** With `wire: true`: the body's bytes as they came, compressed or not. */
  wire?: Buffer;
};

export type RequestOptions = {
  method?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** The API key to send as a bearer token; null sends no Authorization header. */
  key?: string | null;
  /** Send with node:http, which adds no Accept-Encoding and decompresses nothing (`wire` holds the bytes). */
  wire?: boolean;
};

/** A server's address (without /v1) and the API key its requests send by default. */
export type TestServer = { url: string; apiKey: string };

/** A local server on the test file's table, with a key of its own. */
export async function startTestServer(): Promise<TestServer & { close(): Promise<void> }> {
  const [{ startLocalServer }, { sourceApiGateway }, { testApiKeys, testFunctions }] = await Promise.all([
    import('#local/server/http-server.ts'),
    import('#local/api-gateway/source-gateway.ts'),
    import('#test/support/test-table.ts'),
  ]);
  const [server, { key }] = await Promise.all([
    startLocalServer({ gateway: sourceApiGateway(testFunctions), port: 0 }),
    testApiKeys.issue('test'),
  ]);
  return { url: server.url, apiKey: key, close: server.close };
}

/** A test server for the test file's lifetime; `request` is ready from beforeAll on. */
export function useTestServer() {
  const running = {} as {
    server: Awaited<ReturnType<typeof startTestServer>>;
    request: ReturnType<typeof httpClient>;
  };
  beforeAll(async () => {
    running.server = await startTestServer();
    running.request = httpClient(running.server);
  });
  afterAll(() => running.server.close());
  return { request: (target: string, options?: RequestOptions) => running.request(target, options), running };
}

/**
 * One request to `server.url + target`, where `target` is the path from /v1 on with any query
 * (`/v1/pets?limit=5`, or a Link or Location header as the API sends it); the response read and
 * checked against openapi.json.
 */
export async function sendRequest(
  server: TestServer,
  target: string,
  options: RequestOptions = {},
): Promise<HttpResponse> {
  const { method = 'GET', body, key = server.apiKey } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.Authorization ??= `Bearer ${key}`;
  if (body !== undefined && typeof body === 'string') headers['Content-Type'] ??= 'application/json';
  const response = options.wire
    ? await wireRequest(`${server.url}${target}`, { method, headers, body })
    : await fetch(`${server.url}${target}`, { method, headers, body });
  const text = await response.text();
  // Every response the HTTP tests see must be one the OpenAPI document describes.
  assertResponseMatchesOpenApi({
    method,
    path: target,
    status: response.status,
    headers: response.headers,
    bodyText: text,
  });
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const wire = 'wire' in response ? { wire: response.wire } : {};
  return { status: response.status, headers: response.headers, text, json, ...wire };
}

const DECODERS: Record<string, (bytes: Buffer) => Buffer> = { gzip: gunzipSync, deflate: inflateSync };

/** One exchange over node:http(s): the status, headers, the bytes as they came and their decoded text. */
function wireRequest(
  url: string,
  { method, headers, body }: { method: string; headers: Record<string, string>; body?: string | Buffer },
) {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise<{ status: number; headers: Headers; wire: Buffer; text(): Promise<string> }>(
    (resolve, reject) => {
      const request = send(url, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const wire = Buffer.concat(chunks);
          const received = new Headers();
          for (let i = 0; i < response.rawHeaders.length; i += 2)
            received.append(response.rawHeaders[i] ?? '', response.rawHeaders[i + 1] ?? '');
          const decode = DECODERS[received.get('content-encoding') ?? ''] ?? ((bytes: Buffer) => bytes);
          const text = decode(wire).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: received, wire, text: async () => text });
        });
      });
      request.on('error', reject);
      request.end(body);
    },
  );
}

export function httpClient(server: TestServer) {
  return (target: string, options?: RequestOptions): Promise<HttpResponse> =>
    sendRequest(server, target, options);
}
