// Where a running local server says how to reach its DynamoDB, so that `npm run keys` reaches an
// in-memory table too: one small JSON file per server under `.petstore/servers/` in this checkout (or
// PETSTORE_SERVERS_DIR), removed when the server exits. A file whose process is gone (a server killed
// hard) is stale: it is ignored and removed.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type ServerRecord = {
  pid: number;
  /** The HTTP server, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** The DynamoDB the server uses: its embedded one on a loopback port, or the one it was given. */
  dynamoDbEndpoint: string;
  tableName: string;
  /** The region the server's clients sign for (DynamoDB Local without -sharedDb keeps tables per region). */
  region?: string | undefined;
  dataDir?: string | undefined;
};

const SERVER_RECORDS_DIR = join(import.meta.dirname, '..', '..', '.petstore', 'servers');

/**
 * Writes this process's record, removed when it exits (after a SIGKILL, readers find it stale), in
 * `dir` when given (PETSTORE_SERVERS_DIR), else in the checkout's.
 */
export function recordRunningServer(dir: string | undefined, record: Omit<ServerRecord, 'pid'>) {
  const file = join(dir ?? SERVER_RECORDS_DIR, `${process.pid}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, ...record }, null, 2)}\n`);
  process.once('exit', () => rmSync(file, { force: true }));
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRecord(file: string): ServerRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ServerRecord;
  } catch {
    return undefined;
  }
}

/** The local servers running now, by URL. */
export function runningServers(dir = SERVER_RECORDS_DIR): ServerRecord[] {
  if (!existsSync(dir)) return [];
  const records: ServerRecord[] = [];
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
    const file = join(dir, name);
    const record = readRecord(file);
    if (record && isRunning(record.pid)) records.push(record);
    else rmSync(file, { force: true });
  }
  return records.sort((a, b) => a.url.localeCompare(b.url));
}
