// The stage run's function runner: each function's bundled asset in its own Node.js process per
// concurrent instance, as Lambda runs it. An instance starts cold on first need, is reused while warm,
// is replaced when it dies, and is killed when an invocation runs past the function's timeout.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { FunctionRunner, Invocation } from '#local/lambda/runner.ts';

const INSTANCE = new URL('./child-process-instance.mjs', import.meta.url);

/** Instances per function when it reserves no concurrency. */
export const DEFAULT_MAX_INSTANCES = 8;

export type LambdaFunctionSpec = {
  /** The asset directory: Lambda's /var/task. */
  taskRoot: string;
  /** `index.handler`: the module and its export. */
  handler: string;
  /** Everything the process sees: the function's variables and Lambda's own. */
  environment: Record<string, string>;
  timeoutSeconds: number;
  memoryMb: number;
  reservedConcurrency?: number;
};

export type ChildProcessRunnerOptions = {
  maxInstances?: number;
  /** Each line an instance writes (its logs), with the function's name. */
  log?: (functionName: string, line: string) => void;
  /** Each cold start: the function and its new instance's process id. */
  instanceStarted?: (functionName: string, pid: number) => void;
};

type InstanceMessage =
  | { type: 'ready' }
  | { type: 'init-error' | 'error'; id?: string; errorType: string; errorMessage: string }
  | { type: 'result'; id: string; result: unknown };

type Instance = { process: ChildProcess; ready: Promise<Invocation | undefined> };

/**
 * An instance can take a call while its IPC channel is open and no kill was sent: one that died
 * between calls, or was just killed, is never handed out again, even before its exit is reported.
 */
const isAlive = ({ process: child }: Instance) => child.connected && !child.killed;

function startInstance(
  name: string,
  spec: LambdaFunctionSpec,
  log: ChildProcessRunnerOptions['log'],
): Instance {
  const child = fork(INSTANCE, [], {
    execPath: process.execPath,
    // The heap is bounded by the function's memory, as Lambda's runtime bounds it.
    execArgv: [`--max-old-space-size=${spec.memoryMb}`],
    env: { ...spec.environment, LAMBDA_TASK_ROOT: spec.taskRoot, _HANDLER: spec.handler },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // A process group of its own keeps a terminal's Ctrl-C away from an instance still starting,
    // before it can ignore the signal. Windows has no such groups: the instance's handler must do.
    detached: process.platform !== 'win32',
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => log?.(name, line));
  }
  // A send to an instance that died fails through its callback; the event would be unhandled.
  child.on('error', () => undefined);
  const ready = new Promise<Invocation | undefined>((resolve) => {
    child.once('exit', (code) =>
      resolve({ ok: false, failure: 'error', message: `Runtime exited with code ${code} during init` }),
    );
    child.on('message', (message: InstanceMessage) => {
      if (message.type === 'ready') resolve(undefined);
      if (message.type === 'init-error')
        resolve({ ok: false, failure: 'error', message: message.errorMessage });
    });
  });
  return { process: child, ready };
}

/** Sends one invocation to a ready instance; kills it past the timeout. */
function invokeInstance(instance: Instance, spec: LambdaFunctionSpec, event: unknown, requestId: string) {
  return new Promise<Invocation>((resolve) => {
    const id = randomUUID();
    const timeoutMs = spec.timeoutSeconds * 1000;
    const timer = setTimeout(() => {
      instance.process.kill('SIGKILL');
      finish({
        ok: false,
        failure: 'timeout',
        message: `Task timed out after ${spec.timeoutSeconds} seconds`,
      });
    }, timeoutMs);
    const onMessage = (message: InstanceMessage) => {
      if (message.type === 'result' && message.id === id) finish({ ok: true, result: message.result });
      if (message.type === 'error' && message.id === id)
        finish({ ok: false, failure: 'error', message: message.errorMessage });
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish({ ok: false, failure: 'error', message: `Runtime exited (${signal ?? `code ${code}`})` });
    function finish(invocation: Invocation) {
      clearTimeout(timer);
      instance.process.off('message', onMessage).off('exit', onExit);
      resolve(invocation);
    }
    instance.process.on('message', onMessage).once('exit', onExit);
    instance.process.send({ id, requestId, event, deadline: Date.now() + timeoutMs }, (error) => {
      if (error) finish({ ok: false, failure: 'error', message: `Runtime unreachable: ${error.message}` });
    });
  });
}

function createPool(name: string, spec: LambdaFunctionSpec, options: ChildProcessRunnerOptions) {
  const idle: Instance[] = [];
  const all = new Set<Instance>();
  const waiting: (() => void)[] = [];
  // The reserved concurrency bounds the instances (beyond it a call is throttled, as in Lambda); without
  // one, a local bound keeps the machine responsive and extra calls wait for a free instance.
  const limit = spec.reservedConcurrency ?? options.maxInstances ?? DEFAULT_MAX_INSTANCES;

  async function acquire(): Promise<Instance | undefined> {
    for (;;) {
      const warm = idle.pop();
      if (warm && isAlive(warm)) return warm;
      if (warm) continue;
      for (const instance of all) if (!isAlive(instance)) all.delete(instance);
      if (all.size < limit) {
        const instance = startInstance(name, spec, options.log);
        all.add(instance);
        if (instance.process.pid !== undefined) options.instanceStarted?.(name, instance.process.pid);
        return instance;
      }
      if (spec.reservedConcurrency !== undefined) return undefined;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }

  function release(instance: Instance) {
    // A dead one leaves `all` when the next instance is needed.
    if (isAlive(instance)) idle.push(instance);
    waiting.shift()?.();
  }

  return {
    async invoke(event: unknown, requestId: string): Promise<Invocation> {
      const instance = await acquire();
      if (!instance) return { ok: false, failure: 'throttled', message: 'Rate Exceeded.' };
      try {
        const initFailure = await instance.ready;
        if (initFailure) {
          instance.process.kill('SIGKILL');
          return initFailure;
        }
        return await invokeInstance(instance, spec, event, requestId);
      } finally {
        release(instance);
      }
    },
    close() {
      for (const instance of all) instance.process.kill('SIGKILL');
      all.clear();
    },
  };
}

export function childProcessRunner(
  specs: Record<string, LambdaFunctionSpec>,
  options: ChildProcessRunnerOptions = {},
): FunctionRunner {
  const pools = new Map(Object.entries(specs).map(([name, spec]) => [name, createPool(name, spec, options)]));
  return {
    invoke(functionName, event, requestId = randomUUID()) {
      const pool = pools.get(functionName);
      if (!pool)
        return Promise.resolve({ ok: false, failure: 'error', message: `No function ${functionName}` });
      return pool.invoke(event, requestId);
    },
    async close() {
      for (const pool of pools.values()) pool.close();
    },
  };
}
