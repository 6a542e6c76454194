// An HTTP proxy on 127.0.0.1 in front of a DynamoDB endpoint, with hooks to answer a request itself (at
// once or after a while), rewrite it, or see the answer (and hold it back a while). Bodies are read whole
// (DynamoDB's JSON is small), so a hook sees and changes them in one piece. It can stop (connections
// refused, requests in flight cut) and restart on the same port, as a DynamoDB unreachable for a while.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxiedRequest = {
  /** The DynamoDB operation (GetItem, Query, PutItem, ...), from X-Amz-Target. */
  operation: string;
  /** As the client sent them: its signature names its access key. */
  headers: IncomingHttpHeaders;
  body: Buffer;
};

export type ProxiedAnswer = { status: number; headers: OutgoingHttpHeaders; body: Buffer };

export type DynamoDbProxyHooks = {
  /**
   * An answer to give instead of the endpoint's (a fault), or undefined to forward the request;
   * it may take its time (a slow DynamoDB).
   */
  answer?(request: ProxiedRequest): ProxiedAnswer | undefined | Promise<ProxiedAnswer | undefined>;
  /** The request to forward instead of the client's. */
  rewrite?(request: ProxiedRequest): ProxiedRequest;
  /**
   * Sees each answer of the endpoint, with the request as forwarded, before the client does; the
   * client waits for it (an answer held back).
   */
  observe?(request: ProxiedRequest, answer: ProxiedAnswer): void | Promise<void>;
};

export type DynamoDbProxy = {
  endpoint: string;
  /** Refuses new connections and cuts every request in flight. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
};

const readAll = async (stream: IncomingMessage) => Buffer.concat(await stream.toArray());

const operationOf = (incoming: IncomingMessage) =>
  String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';

/** Sends the request on to the endpoint, with its length as rewritten. */
function forward(upstream: URL, incoming: IncomingMessage, body: Buffer): Promise<ProxiedAnswer> {
  return new Promise((resolve, reject) => {
    const forwarded = httpRequest({
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, 'content-length': body.length },
    });
    forwarded.on('response', (answer) => {
      readAll(answer)
        .then((answerBody) =>
          resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: answerBody }),
        )
        .catch(reject);
    });
    forwarded.on('error', reject);
    forwarded.end(body);
  });
}

export async function startDynamoDbProxy(
  target: string,
  hooks: DynamoDbProxyHooks = {},
): Promise<DynamoDbProxy> {
  const upstream = new URL(target);
  let port = 0;

  async function relay(incoming: IncomingMessage, outgoing: ServerResponse) {
    const received = {
      operation: operationOf(incoming),
      headers: incoming.headers,
      body: await readAll(incoming),
    };
    let answer = await hooks.answer?.(received);
    if (!answer) {
      const request = hooks.rewrite?.(received) ?? received;
      answer = await forward(upstream, incoming, request.body);
      await hooks.observe?.(request, answer);
    }
    // A stop may have cut the client off while the endpoint was answering.
    if (!outgoing.destroyed) outgoing.writeHead(answer.status, answer.headers).end(answer.body);
  }

  // Whatever fails (the client or the endpoint gone), the client sees its connection cut.
  const server = createServer((incoming, outgoing) => {
    relay(incoming, outgoing).catch(() => outgoing.destroy());
  });

  async function listen() {
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }

  function stop() {
    return new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }

  await listen();
  return { endpoint: `http://127.0.0.1:${port}`, stop, restart: listen, close: stop };
}
