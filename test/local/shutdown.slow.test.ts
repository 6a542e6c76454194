// Stopping the servers while keep-alive clients keep sending: a SIGTERM from a process manager, Ctrl-C
// in a terminal (SIGINT to the whole process group, the stage run's function instances included), and
// a process manager that stops npm instead of the server. Every request that reaches a server is
// answered in full, none with a 5xx; a client's next connection finds the server gone; it exits 0.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { DRAIN_LINGER_MS } from '#local/server/connections.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import { SYNTH_TIMEOUT_MS, projectAssembly } from '#test/support/project-assembly.ts';

afterEach(killScripts);

/** Clients sending one request after another on their keep-alive connections. */
const CLIENTS = 8;
/** Requests each client has answered before the signal is sent. */
const ANSWERED_BEFORE_SIGNAL = 3;

/** An answer, or the failure that ended the client, with when its request was sent. */
type Outcome = ({ status: number; connection: string | null } | { error: string }) & { sentAt: number };

/**
 * Sends requests one after another, creating a pet every other one, until one fails; the failure
 * is its cause's code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET for a connection closed under a
 * request).
 */
async function keepSending(url: string, key: string, client: number, outcomes: Outcome[]) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  for (let i = 0; ; i++) {
    const create = i % 2 === 1;
    const sentAt = Date.now();
    try {
      const response = await fetch(`${url}/v1/pets`, {
        method: create ? 'POST' : 'GET',
        headers,
        body: create ? JSON.stringify({ name: `Client ${client} pet ${i}`, categoryId: 1 }) : undefined,
      });
      await response.arrayBuffer();
      outcomes.push({ status: response.status, connection: response.headers.get('connection'), sentAt });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      outcomes.push({ error: cause?.code ?? cause?.message ?? String(error), sentAt });
      return;
    }
  }
}

/**
 * Sends the signal under load. The drain counts from when the test saw the server's "shutting down"
 * line, logged in the tick the server starts draining: on a loaded machine, a request sent after
 * the signal may reach the server, and be answered, before it handles the signal.
 */
async function underLoad(
  url: string,
  key: string,
  { child, output }: Pick<ReturnType<typeof runScript>, 'child' | 'output'>,
  signal: () => void,
) {
  const outcomes = Array.from({ length: CLIENTS }, () => [] as Outcome[]);
  const clients = outcomes.map((client, i) => keepSending(url, key, i, client));
  for (let waited = 0; outcomes.some((client) => client.length < ANSWERED_BEFORE_SIGNAL); waited += 20) {
    if (waited > 30_000) throw new Error('the clients did not get their first answers');
    await sleep(20);
  }
  const drainSeen = new Promise<number>((resolve) =>
    child.stdout.on('data', () => /shutting down/.test(output()) && resolve(Date.now())),
  );
  const signalledAt = Date.now();
  signal();
  await Promise.all(clients);
  const drainSeenAt = await drainSeen;
  return { outcomes, signalledAt, drainSeenAt };
}

function expectCleanDrain({
  outcomes,
  signalledAt,
  drainSeenAt,
}: {
  outcomes: Outcome[][];
  signalledAt: number;
  drainSeenAt: number;
}) {
  for (const client of outcomes) {
    const last = client.at(-1);
    const answers = client.slice(0, -1);
    // Each client's last request found the server gone: its new connection was refused, or reset by
    // the kernel when it was still in the listener's backlog as the listener closed (never accepted,
    // so never read: the answers before it are complete, below).
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain(last && 'error' in last ? last.error : 'an answer');
    for (const answer of answers)
      expect(answer).toEqual({
        status: expect.any(Number),
        connection: expect.any(String),
        sentAt: expect.any(Number),
      });
    expect(answers.filter((answer) => 'status' in answer && answer.status >= 300)).toEqual([]);
    // The answer before the refusal told the client the connection was closing, unless the client
    // sent nothing more within the drain's linger: then the server closed the idle connection (a
    // FIN, never a reset) and the next request needed a new one.
    // An answer to a request sent before the drain was seen to start may still say keep-alive.
    const lingered = (last?.sentAt ?? 0) - signalledAt >= DRAIN_LINGER_MS;
    const answeredInDrain = (answers.at(-1)?.sentAt ?? 0) >= drainSeenAt;
    if (!lingered && answeredInDrain) expect(answers.at(-1)).toMatchObject({ connection: 'close' });
  }
}

// The stage run's cdk.out, made fresh before any server starts: a start is then only a start.
beforeAll(() => {
  projectAssembly('production');
}, SYNTH_TIMEOUT_MS);

describe.each([
  ['npm start', 'local/start.ts', []],
  ['npm run start:stage -- production', 'local/start-stage.ts', ['production']],
])('%s, stopped under keep-alive load', (_name, script, args) => {
  const key = `k_drain_${Date.now()}`;

  it('answers every request that reached it on SIGTERM, and exits 0', async () => {
    const run = runScript(script, args, { PORT: '0', PETSTORE_API_KEY: key });
    const url = await bannerUrl(run);
    expectCleanDrain(await underLoad(url, key, run, () => run.child.kill('SIGTERM')));
    expect(await run.exited).toBe(0);
    expect(run.output()).not.toMatch(/"status":5\d\d|LEVEL_|Error/);
  });

  it('drains the same way on Ctrl-C, which signals the whole process group', async () => {
    const run = runScript(script, args, { PORT: '0', PETSTORE_API_KEY: key }, { processGroup: true });
    const url = await bannerUrl(run);
    expectCleanDrain(await underLoad(url, key, run, () => process.kill(-(run.child.pid ?? 0), 'SIGINT')));
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/SIGINT: shutting down/);
    expect(run.output()).not.toMatch(/"status":5\d\d|LEVEL_|Error/);
  });
});

describe('npm start under a process manager', () => {
  const key = 'k_process_manager';

  it('stops when npm, which started it, is stopped with SIGTERM', async () => {
    // npm itself, as a process manager starts it: the npm that runs the tests (npm_execpath).
    const npm = runScript(process.env.npm_execpath ?? '', ['start'], { PORT: '0', PETSTORE_API_KEY: key });
    const url = await bannerUrl(npm);
    expect((await fetch(`${url}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    npm.child.kill('SIGTERM');
    expect(await stopsAnswering(url)).toBe(true);
  });

  it('stops when npm is killed after a SIGINT, which the shell npm runs the script in may hold', async () => {
    // pm2's way: SIGINT to npm alone, then SIGKILL once its kill_timeout is over.
    const npm = runScript(process.env.npm_execpath ?? '', ['start'], { PORT: '0', PETSTORE_API_KEY: key });
    const url = await bannerUrl(npm);
    npm.child.kill('SIGINT');
    await sleep(500);
    npm.child.kill('SIGKILL');
    expect(await stopsAnswering(url)).toBe(true);
  });
});

/** Whether the server at `url` stops accepting connections within a few seconds. */
async function stopsAnswering(url: string) {
  for (let waited = 0; waited < 5_000; waited += 100) {
    const refused = await fetch(url).then(
      () => false,
      (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    );
    if (refused) return true;
    await sleep(100);
  }
  return false;
}
