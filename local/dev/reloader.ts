// The API of `npm run dev`, reloaded on save: requests go over IPC to a worker process that runs the
// sources as they were when it started. On a change a new worker starts beside the old one; once ready,
// it takes the next requests and the old one finishes those it holds, then stops. No request is refused
// or lost by a reload, and an edit that does not load leaves the previous code serving.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { relative } from 'node:path';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { watch } from 'chokidar';
import { serviceUnavailable } from '#shared/api-error.ts';
import { errorResponse } from '#shared/http/json-response.ts';
import type { ApiGateway, GatewayRequest } from '#local/api-gateway/gateway.ts';
import type { DevWorkerConfig, FromDevWorker, ToDevWorker } from '#local/dev/worker.ts';

const WORKER = new URL('./worker.ts', import.meta.url);
/** Editors write a file in bursts (truncate, write, rename): one reload per burst. */
const SETTLE_MS = 100;
/** What an edit can change: sources, the committed OpenAPI document's inputs, the worker's code. */
const SOURCE_FILE = /\.(ts|mts|mjs|js|json)$/;

export type DevReloaderOptions = {
  config: DevWorkerConfig;
  /** Absolute directories whose changes reload the API. */
  watchDirs: string[];
  /** Directory the reload lines name files relative to. */
  root: string;
  log: (line: string) => void;
};

type Worker = {
  child: ChildProcess;
  invoke(request: GatewayRequest): Promise<APIGatewayProxyResult>;
  /** Lets it finish what it holds, then stops it. */
  retire(): void;
};

const unavailable = (message: string) => errorResponse(serviceUnavailable(message));

function startWorker(config: DevWorkerConfig, onExit: (worker: Worker) => void): Promise<Worker> {
  const child = fork(WORKER, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, (result: APIGatewayProxyResult) => void>();
  let nextId = 0;
  let retiring = false;
  const send = (message: ToDevWorker) => child.send(message);
  // Disconnecting ends the worker (local/dev/worker.ts), which ignores the terminal's signals.
  const stop = () => child.connected && child.disconnect();
  const stopIfIdle = () => retiring && pending.size === 0 && stop();

  const worker: Worker = {
    child,
    invoke: (request) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        send({ type: 'request', id, request });
      }),
    retire() {
      retiring = true;
      stopIfIdle();
    },
  };
  child.on('message', (message: FromDevWorker) => {
    if (message.type !== 'response') return;
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
    stopIfIdle();
  });
  return new Promise((resolve, reject) => {
    child.on('message', (message: FromDevWorker) => {
      if (message.type === 'ready') resolve(worker);
      if (message.type === 'failed') {
        stop();
        reject(new Error(message.message));
      }
    });
    child.once('exit', (code, signal) => {
      for (const answer of pending.values()) answer(unavailable('The local API process stopped: retry.'));
      pending.clear();
      reject(new Error(`the API process exited (${signal ?? `code ${code}`}) before it was ready`));
      if (!retiring) onExit(worker);
    });
    send({ type: 'start', config });
  });
}

/**
 * Calls `changed` with the files changed in each burst of changes under the directories; resolves
 * once every directory is watched, with the function that stops watching.
 */
async function watchSources(dirs: string[], changed: (files: string[]) => void, log: (line: string) => void) {
  let burst = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  // chokidar, not Node's recursive fs.watch: on Linux that one loses a file for good once a save
  // replaces it by renaming a new file over it (`sed -i`, many editors and formatters).
  const watcher = watch(dirs, {
    ignoreInitial: true,
    // Every directory is walked; of the files, only sources are watched.
    ignored: (path, stats) => stats?.isFile() === true && !SOURCE_FILE.test(path),
  });
  watcher.on('all', (event, file) => {
    if (!['add', 'change', 'unlink'].includes(event) || !SOURCE_FILE.test(file)) return;
    burst.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...burst];
      burst = new Set();
      changed(files);
    }, SETTLE_MS);
  });
  watcher.on('error', (error) => log(`dev: watching for changes failed: ${(error as Error).message}`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return async () => {
    clearTimeout(timer);
    await watcher.close();
  };
}

export function createDevReloader({ config, watchDirs, root, log }: DevReloaderOptions) {
  let current: Worker | undefined;
  let loadError = 'The local API is starting.';
  let reloading = Promise.resolve();
  let stopWatching = async (): Promise<void> => undefined;

  function workerExited(worker: Worker) {
    if (current !== worker) return;
    current = undefined;
    loadError = 'The local API process stopped: save a file to start it again.';
    log(
      `dev: the API process stopped on its own (exit code ${worker.child.exitCode}): save a file to reload.`,
    );
  }

  /** A new worker takes over from the current one, or the current one stays when the new one fails. */
  async function load(): Promise<string | undefined> {
    try {
      const next = await startWorker(config, workerExited);
      current?.retire();
      current = next;
      return undefined;
    } catch (error) {
      loadError = `The local API does not load: ${(error as Error).message}`;
      return (error as Error).message;
    }
  }

  function reload(files: string[]) {
    reloading = reloading.then(async () => {
      const started = performance.now();
      const failure = await load();
      const names = files.map((file) => relative(root, file)).join(', ');
      const took = Math.round(performance.now() - started);
      log(
        failure
          ? `dev: ${names} changed; it does not load, the previous code still serves: ${failure}`
          : `dev: ${names} changed; reloaded in ${took} ms`,
      );
    });
  }

  const gateway: ApiGateway = (request) =>
    current ? current.invoke(request) : Promise.resolve(unavailable(loadError));

  return {
    gateway,
    /** The first worker; its failure is returned as a message, and the next save tries again. */
    async start() {
      const failure = await load();
      stopWatching = await watchSources(watchDirs, reload, log);
      return failure;
    },
    async close() {
      await stopWatching();
      await reloading;
      current?.retire();
    },
  };
}
