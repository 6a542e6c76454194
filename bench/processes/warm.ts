// Warm invocations, one at a time, each timed, after a warm-up in each process long enough for the
// connection pool and for V8's optimizing compilers, which reach a function's steady state later than a
// bare baseline's (more code to optimize). The invocations are spread over a few processes that alternate
// with the others', so a burst of load elsewhere on the machine cannot land on one side.
import { runRounds } from '#bench/processes/child-process.ts';
import type { ChildResult } from '#bench/processes/child-process.ts';
import type { Fixture } from '#bench/dynamodb/fixture.ts';
import { median, percentile, spread } from '#bench/stats.ts';
import type { Spread } from '#bench/stats.ts';
import { measureEach } from '#bench/subjects.ts';
import type { PerSubject } from '#bench/subjects.ts';

/** A long warm-up: a warm Lambda instance serves thousands of requests, so its steady state counts. */
export const WARM_LOOPS = { rounds: 4, warmup: 1200, iterations: 600 };

export type Warm = {
  invocations: number;
  /** Of every invocation of every process together. */
  p50Ms: number;
  p99Ms: number;
  /** The same figures process by process: how far they moved between processes. */
  p50SpreadMs: Spread;
  p99SpreadMs: Spread;
  cpuMsPerInvocation: number;
};

function summarize(runs: ChildResult[]): Warm {
  const latenciesMs = runs.flatMap((run) => run.latenciesMs);
  return {
    invocations: latenciesMs.length,
    p50Ms: median(latenciesMs),
    p99Ms: percentile(latenciesMs, 0.99),
    p50SpreadMs: spread(runs.map((run) => median(run.latenciesMs))),
    p99SpreadMs: spread(runs.map((run) => percentile(run.latenciesMs, 0.99))),
    // Every run has the same number of invocations: the mean of the means is the mean.
    cpuMsPerInvocation: runs.reduce((sum, run) => sum + run.cpuMsPerInvocation, 0) / runs.length,
  };
}

export type WarmLoops = typeof WARM_LOOPS;

export async function measureWarm(
  fixture: Fixture,
  { rounds, ...loops }: WarmLoops = WARM_LOOPS,
): Promise<PerSubject<Warm>> {
  const runs = await runRounds(rounds, fixture, loops);
  return measureEach(async (subject, variant) => summarize(runs[subject.name][variant]));
}
