// dynalite: a DynamoDB implementation in pure Node, in memory or on disk, in this process. No
// Docker, no Java. The real AWS SDK talks to it over HTTP, at the endpoint it listens on.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import dynalite from 'dynalite';

export type EmbeddedDynamoDb = { endpoint: string; close(): Promise<void> };

/** In memory, or on disk under PETSTORE_DATA_DIR's `dynamodb/` (the server and `npm run keys` share it). */
export async function startEmbeddedDynamoDb({ dataDir, port = 0 }: { dataDir?: string; port?: number } = {}) {
  const path = dataDir && join(dataDir, 'dynamodb');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
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
