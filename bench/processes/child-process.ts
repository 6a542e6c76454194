// Starts bench/processes/invoke-child.mjs in a fresh Node (this same Node 24 binary, with no options, as the
// stack sets no NODE_OPTIONS) and returns what it measured.
import { fork } from 'node:child_process';
import { subjectEvents } from '#bench/processes/events.ts';
import type { Fixture } from '#bench/dynamodb/fixture.ts';
import { bundlePath, measureEach } from '#bench/subjects.ts';
import type { PerSubject, Subject, Variant } from '#bench/subjects.ts';

const CHILD = new URL('./invoke-child.mjs', import.meta.url);

type ChildRequest = {
  bundle: string;
  /** The invocations take these in turn: getPet asks for another pet each time, as at scale. */
  events: unknown[];
  /** 200, 201, or 200 for an authorizer's Allow policy: anything else means a broken fixture. */
  expectedStatus: number;
  warmup: number;
  iterations: number;
};

export type ChildResult = {
  /** From just before import() to the first invocation's answer: Lambda's Init plus first Duration. */
  coldMs: number;
  /** User + system CPU time in the same window. */
  coldCpuMs: number;
  /** What a fresh instance holds once it has answered (Node itself included). */
  rssAfterColdStartMb: number;
  /** One per warm invocation, after the warm-up. */
  latenciesMs: number[];
  /** User + system CPU of the warm invocations, divided by their number. */
  cpuMsPerInvocation: number;
  unexpectedStatuses: number[];
};

function runChild(request: ChildRequest, env: NodeJS.ProcessEnv): Promise<ChildResult> {
  const child = fork(CHILD, [], {
    execPath: process.execPath,
    execArgv: [],
    env,
    // Metrics go to stdout on every invocation, as in Lambda: written, but not to the terminal.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // Over the IPC channel, not the command line: getPet's requests are too many for one argument.
  child.send(request);
  return new Promise((resolve, reject) => {
    let result: ChildResult | undefined;
    child.once('message', (message) => (result = message as ChildResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!result) return reject(new Error(`${request.bundle}: child exited with ${code} and no result`));
      if (result.unexpectedStatuses.length > 0)
        return reject(new Error(`${request.bundle}: unexpected answers ${result.unexpectedStatuses}`));
      resolve(result);
    });
  });
}

export type Loops = Pick<ChildRequest, 'warmup' | 'iterations'>;

/** One fresh process: the subject's bundle, its request, and as many warm loops as asked. */
const runBundle = (subject: Subject, variant: Variant, fixture: Fixture, loops: Loops) =>
  runChild(
    { bundle: bundlePath(subject.name, variant), ...subjectEvents(subject.name, fixture), ...loops },
    fixture.childEnv(subject.name),
  );

/**
 * Each round starts every subject's function, baseline and references once, one right after the
 * other, each in a fresh process (A B A B ... over the rounds), so whatever else slows the machine
 * down meanwhile slows both sides of a ratio alike.
 */
export async function runRounds(
  rounds: number,
  fixture: Fixture,
  loops: Loops,
): Promise<PerSubject<ChildResult[]>> {
  const results: PerSubject<ChildResult>[] = [];
  for (let round = 0; round < rounds; round++) {
    results.push(await measureEach((subject, variant) => runBundle(subject, variant, fixture, loops)));
  }
  return measureEach(async (subject, variant) => results.map((round) => round[subject.name][variant]));
}
