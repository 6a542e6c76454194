// dynalite: a DynamoDB implementation in pure Node, in memory or on disk, in this process. No
// Docker, no Java. The real AWS SDK talks to it over HTTP through AWS_ENDPOINT_URL_DYNAMODB.
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

export type EmbeddedDynamoDb = { endpoint: string; close(): Promise<void> };

export async function startEmbeddedDynamoDb({ path, port = 0 }: { path?: string; port?: number } = {}) {
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${boundPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  } satisfies EmbeddedDynamoDb;
}
