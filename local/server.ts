// The local API: a plain Node HTTP server in front of local/api-gateway.ts. It reads at most one
// byte past the body limit (the function then answers 413), logs one access line per request,
// and closes cleanly.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { requireEnv } from '#shared/env.ts';
import { gatewayResponseOf } from '#shared/http/gateway-responses.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { issueApiKey } from '#shared/store/api-key-store.ts';
import { handleGatewayRequest } from '#local/api-gateway.ts';
import { ensureTable } from '#local/table-setup.ts';

export type AccessLogEntry = {
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
};

export type LocalServerOptions = {
  port?: number;
  host?: string;
  /** Accepted as a key (stored hashed); a new random key is issued when absent. */
  apiKey?: string;
  /** Create the table when it is missing (only for DynamoDB the server owns). */
  createTable?: boolean;
  accessLog?: (entry: AccessLogEntry) => void;
};

export type LocalServer = { url: string; apiKey: string; close(): Promise<void> };

/** API Gateway's own payload limit: a larger request is cut off rather than read. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** Reads the whole request, keeping only one byte past the body limit (enough for the 413). */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let totalBytes = 0;
    request.on('data', (chunk: Buffer) => {
      totalBytes += chunk.length;
      if (totalBytes > MAX_REQUEST_BYTES) request.destroy(new Error('Request larger than 10 MiB'));
      if (keptBytes <= MAX_BODY_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
    });
    request.on('end', () => resolve(Buffer.concat(kept).subarray(0, MAX_BODY_BYTES + 1)));
    request.on('error', reject);
  });
}

function lambdaContext(requestId: string): Context {
  return {
    awsRequestId: requestId,
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'petstore-local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:123456789012:function:petstore-local',
    memoryLimitInMB: '256',
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function registerApiKey(apiKey: string | undefined): Promise<string> {
  if (apiKey === undefined) return (await issueApiKey('local')).key;
  try {
    await issueApiKey('local (PETSTORE_API_KEY)', apiKey);
  } catch (error) {
    // Already registered by an earlier run on the same data: nothing to do.
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
  return apiKey;
}

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const { port = 3000, host = '127.0.0.1', createTable = true, accessLog = () => undefined } = options;
  if (createTable) {
    const client = new DynamoDBClient({});
    await ensureTable(client, requireEnv('PETSTORE_TABLE_NAME'));
    client.destroy();
  }
  const apiKey = await registerApiKey(options.apiKey);

  async function serve(request: IncomingMessage, response: ServerResponse) {
    const started = performance.now();
    const requestId = randomUUID();
    const body = await readBody(request);
    const result = await handleGatewayRequest(
      {
        method: request.method ?? 'GET',
        target: request.url ?? '/',
        headers: pairs(request.rawHeaders),
        body,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        requestId,
      },
      lambdaContext(requestId),
    ).catch(() => {
      const { body: error, headers } = gatewayResponseOf('DEFAULT_5XX');
      return { statusCode: error.status, headers, body: JSON.stringify(error) };
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

  const server = createServer((request, response) => {
    // A request cut off mid-body (client gone, or over 10 MiB) has no one left to answer.
    serve(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    apiKey,
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
