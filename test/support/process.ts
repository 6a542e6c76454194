// Child processes for the tests: one of the project's scripts run as a user would, on Node 24 with its
// own embedded DynamoDB (the test run's endpoint and table are not passed on), or node run to the end.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';
import { REPO_ROOT } from '#test/support/repository.ts';

export type NodeRun = { code: number | null; stdout: string; stderr: string };

/** `input`: what the child reads on stdin, which is closed at once without it. */
export type NodeRunOptions = { cwd: string; env?: Record<string, string>; input?: string };

/** Runs the Node.js of the tests with `args` until it exits (the environment is inherited). */
export function runNode(args: string[], { cwd, env = {}, input = '' }: NodeRunOptions): Promise<NodeRun> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const running: ChildProcessWithoutNullStreams[] = [];

export type ScriptRun = ReturnType<typeof runScript>;

/**
 * `env` adds to the inherited environment; a variable given as undefined is not passed on. With
 * `processGroup`, the script leads a process group of its own, as a terminal's foreground job
 * does: `process.kill(-run.child.pid, 'SIGINT')` is then the terminal's Ctrl-C.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  { cwd = REPO_ROOT, processGroup = false }: { cwd?: string; processGroup?: boolean } = {},
) {
  const { AWS_ENDPOINT_URL_DYNAMODB: _endpoint, PETSTORE_TABLE_NAME: _table, ...inherited } = process.env;
  const child = spawn(process.execPath, [resolvePath(REPO_ROOT, script), ...args], {
    cwd,
    env: { ...inherited, ...env },
    detached: processGroup,
  });
  running.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  async function waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    for (let waited = 0; waited < 15_000; waited += 50) {
      const match = pattern.exec(output);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Timed out waiting for ${pattern} in:\n${output}`);
  }
  return { child, exited, waitFor, output: () => output };
}

/** A script run to its end: its exit code, its stdout and stderr apart, and both as they came. */
export async function runToEnd(...[script, args, env, options]: Parameters<typeof runScript>) {
  const run = runScript(script, args, env, options);
  let [stdout, stderr] = ['', ''];
  run.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  run.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise((resolve) => run.child.once('close', resolve));
  const code = await run.exited;
  await closed;
  return { code, stdout, stderr, output: run.output() };
}

/** Kills whatever a test left running (call from afterEach). */
export function killScripts() {
  for (const child of running.splice(0)) child.kill('SIGKILL');
}

/** The base URL an `npm start` process prints in its banner. */
export const bannerUrl = (run: ScriptRun) =>
  run.waitFor(/listening on (http:\/\/\S+)\/v1/).then((match) => match[1] ?? '');
