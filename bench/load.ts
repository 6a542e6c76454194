// The local server (`npm start`, in its own process with its own embedded DynamoDB) under load
// from autocannon in this process: 10 connections for 5 s per route, loopback only. Every request
// goes through the emulated gateway, so each one also runs the authorizer (no cache locally).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import autocannon from 'autocannon';
import { NEW_PET, LIST_QUERY } from '#bench/processes/events.ts';
import { PROJECT_ROOT } from '#bench/subjects.ts';

export const LOAD = { connections: 10, durationSeconds: 5 };

const API_KEY = 'psk_bench-load-key';
/** What every request to the local server sends: its API key. */
export const HEADERS = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };

export type LoadResult = {
  route: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, connection errors and timeouts: all should be 0. */
  failures: number;
};

export type LocalServer = { url: string; process: ChildProcess };

/** `npm start` in a process of its own; `nodeOptions` come before the script, `ipc` opens a channel. */
export function startLocalServer({ nodeOptions = [] as string[], ipc = false } = {}): Promise<LocalServer> {
  // Its own embedded DynamoDB and table, not the one this process measures with.
  const { AWS_ENDPOINT_URL_DYNAMODB: _endpoint, ...env } = process.env;
  const server = spawn(process.execPath, [...nodeOptions, 'local/start.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...env, PORT: '0', PETSTORE_API_KEY: API_KEY },
    stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? (['ipc'] as const) : [])],
  });
  const stdout = server.stdout as Readable; // piped, as stdio says
  return new Promise((resolve, reject) => {
    let banner = '';
    function readBanner(chunk: Buffer) {
      banner += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
      if (!url) return;
      // From now on the access log is read and dropped: a full pipe would stall the server.
      stdout.off('data', readBanner).resume();
      resolve({ url, process: server });
    }
    stdout.on('data', readBanner);
    server.once('exit', (code) => reject(new Error(`the local server exited (${code}):\n${banner}`)));
  });
}

export type Load = typeof LOAD;

type LoadRequest = { route: string; url: string; method?: string; body?: string };

async function load({ connections, durationSeconds }: Load, { route, url, ...options }: LoadRequest) {
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    headers: HEADERS,
    ...options,
  });
  return {
    route,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  } satisfies LoadResult;
}

export async function measureLoad(size: Load = LOAD): Promise<LoadResult[]> {
  const server = await startLocalServer();
  try {
    const pets = `${server.url}/pets`;
    const body = JSON.stringify(NEW_PET);
    // Creates first: they fill the table the listings and gets then read.
    const created = await load(size, { route: 'POST /v1/pets', url: pets, method: 'POST', body });
    const { id } = (await (await fetch(pets, { method: 'POST', headers: HEADERS, body })).json()) as {
      id: number;
    };
    return [
      created,
      await load(size, { route: `GET /v1/pets?${LIST_QUERY}`, url: `${pets}?${LIST_QUERY}` }),
      await load(size, { route: 'GET /v1/pets/{petId}', url: `${pets}/${id}` }),
    ];
  } finally {
    await stopLocalServer(server);
  }
}

export async function stopLocalServer(server: LocalServer) {
  server.process.kill('SIGTERM');
  await once(server.process, 'exit');
}
