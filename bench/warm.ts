// Warm invocations, one at a time, each timed, after a warm-up (JIT, connection pool) in each
// process. The 2,000 invocations of a function or baseline are spread over a few processes that
// alternate with the others', so a burst of load elsewhere on the machine cannot land on one side.
import { runRounds } from './child-process.ts';
import type { ChildResult } from './child-process.ts';
import type { Fixture } from './fixture.ts';
import { median, percentile } from './stats.ts';
import { measureEach } from './subjects.ts';
import type { PerSubject } from './subjects.ts';

export const WARM_LOOPS = { rounds: 4, warmup: 300, iterations: 500 };

export type Warm = { invocations: number; p50Ms: number; p99Ms: number; cpuMsPerInvocation: number };

function summarize(runs: ChildResult[]): Warm {
  const latenciesMs = runs.flatMap((run) => run.latenciesMs);
  return {
    invocations: latenciesMs.length,
    p50Ms: median(latenciesMs),
    p99Ms: percentile(latenciesMs, 0.99),
    // Every run has the same number of invocations: the mean of the means is the mean.
    cpuMsPerInvocation: runs.reduce((sum, run) => sum + run.cpuMsPerInvocation, 0) / runs.length,
  };
}

export async function measureWarm(fixture: Fixture): Promise<PerSubject<Warm>> {
  const { rounds, ...loops } = WARM_LOOPS;
  const runs = await runRounds(rounds, fixture, loops);
  return measureEach(async (subject, variant) => summarize(runs[subject.name][variant]));
}
