// Cold start: import plus first invocation, in a fresh process each time, against the embedded
// DynamoDB.
import { runRounds } from './child-process.ts';
import type { ChildResult } from './child-process.ts';
import type { Fixture } from './fixture.ts';
import { median } from './stats.ts';
import { measureEach } from './subjects.ts';
import type { PerSubject } from './subjects.ts';

export const COLD_START_RUNS = 31;

export type ColdStart = {
  medianMs: number;
  medianCpuMs: number;
  medianRssMb: number;
  samplesMs: number[];
};

const summarize = (runs: ChildResult[]): ColdStart => ({
  medianMs: median(runs.map((run) => run.coldMs)),
  medianCpuMs: median(runs.map((run) => run.coldCpuMs)),
  medianRssMb: median(runs.map((run) => run.rssAfterColdStartMb)),
  samplesMs: runs.map((run) => Math.round(run.coldMs * 10) / 10),
});

export async function measureColdStarts(fixture: Fixture): Promise<PerSubject<ColdStart>> {
  const runs = await runRounds(COLD_START_RUNS, fixture, { warmup: 0, iterations: 0 });
  return measureEach(async (subject, variant) => summarize(runs[subject.name][variant]));
}
