// Cold start: import plus first invocation, in a fresh process each time, against the embedded
// DynamoDB.
import { runRounds } from '#bench/processes/child-process.ts';
import type { ChildResult } from '#bench/processes/child-process.ts';
import type { Fixture } from '#bench/dynamodb/fixture.ts';
import { median, spread } from '#bench/stats.ts';
import type { Spread } from '#bench/stats.ts';
import { measureEach } from '#bench/subjects.ts';
import type { PerSubject } from '#bench/subjects.ts';

export const COLD_START_RUNS = 31;

export type ColdStart = {
  medianMs: number;
  /** Fastest, median and slowest of the processes. */
  spreadMs: Spread;
  medianCpuMs: number;
  medianRssMb: number;
  samplesMs: number[];
};

function summarize(runs: ChildResult[]): ColdStart {
  const coldMs = runs.map((run) => run.coldMs);
  return {
    medianMs: median(coldMs),
    spreadMs: spread(coldMs),
    medianCpuMs: median(runs.map((run) => run.coldCpuMs)),
    medianRssMb: median(runs.map((run) => run.rssAfterColdStartMb)),
    samplesMs: coldMs.map((ms) => Math.round(ms * 10) / 10),
  };
}

export async function measureColdStarts(
  fixture: Fixture,
  processes = COLD_START_RUNS,
): Promise<PerSubject<ColdStart>> {
  const runs = await runRounds(processes, fixture, { warmup: 0, iterations: 0 });
  return measureEach(async (subject, variant) => summarize(runs[subject.name][variant]));
}
