// dynalite: a DynamoDB implementation in pure Node, in memory or on disk, in this process. No
// Docker, no Java. The real AWS SDK talks to it over HTTP, at the endpoint it listens on.
import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import dynalite from 'dynalite';

export type EmbeddedDynamoDb = { endpoint: string; close(): Promise<void> };

/** A setting or a state of the machine that stops the start: its message is the whole story. */
export class LocalSetupError extends Error {
  override name = 'LocalSetupError';
}

/** The data directory's LevelDB store, where dynalite keeps the tables. */
export const dynamoDbDataPath = (dataDir: string) => join(dataDir, 'dynamodb');

// dynalite's own LevelDB package: the one whose lock the store takes.
type LevelDb = { open(): Promise<void>; close(): Promise<void> };
const { Level } = createRequire(createRequire(import.meta.url).resolve('dynalite'))('level') as {
  Level: new (path: string) => LevelDb;
};

/**
 * dynalite opens its store lazily and throws a held lock from a callback, out of reach of any
 * caller: so the store is opened once first, where its error can become one clear line.
 */
export async function checkDataDir(dataDir: string) {
  if (statSync(dataDir, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new LocalSetupError(`PETSTORE_DATA_DIR ${dataDir} is a file, not a directory: choose a directory.`);
  }
  mkdirSync(dataDir, { recursive: true });
  const store = new Level(dynamoDbDataPath(dataDir));
  try {
    await store.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new LocalSetupError(
        `PETSTORE_DATA_DIR ${dataDir} is in use by another server: stop that server first, or choose another directory.`,
      );
    }
    throw new LocalSetupError(`PETSTORE_DATA_DIR ${dataDir} cannot be opened: ${(error as Error).message}`);
  }
  await store.close();
}

/** In memory, or on disk under PETSTORE_DATA_DIR's `dynamodb/`. */
export async function startEmbeddedDynamoDb({ dataDir, port = 0 }: { dataDir?: string; port?: number } = {}) {
  if (dataDir) await checkDataDir(dataDir);
  const server = dynalite({
    path: dataDir && dynamoDbDataPath(dataDir),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
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
