// An HTTP proxy in front of the test DynamoDB that a test can take down (connections refused,
// requests in flight cut) or make throttle, then bring back on the same address. The data
// behind it is untouched, as when a real DynamoDB endpoint becomes unreachable for a while.
import { createServer, request as forward } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Mode = 'up' | 'throttling';

const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded.',
});

export async function startFaultyDynamoDb(target: string) {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let mode: Mode = 'up';
  let port = 0;
  let server: Server;

  function relay(request: IncomingMessage, response: ServerResponse) {
    if (mode === 'throttling') {
      request.resume();
      response.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' }).end(THROTTLED);
      return;
    }
    const outbound = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outbound.on('error', () => response.destroy());
    request.pipe(outbound);
  }

  async function listen() {
    server = createServer(relay);
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }

  await listen();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    setMode: (next: Mode) => (mode = next),
    /** Refuses new connections and cuts every request in flight. */
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restart: listen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
