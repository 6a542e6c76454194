// `npm run bench [-- --quick] [-- --write]`: bundles the four functions and their baselines, measures
// them (cold start, warm invocations, DynamoDB usage), loads the local server, prices it all, prints
// the tables and the targets, and writes everything to bench/.out/results.json, or to the tracked
// bench/results.json with --write. --quick runs every step at a size that only proves the bench works.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform } from 'node:os';
import { parseArgs } from 'node:util';
import { buildBundles } from '#bench/processes/bundles.ts';
import { COLD_START_RUNS, measureColdStarts } from '#bench/processes/cold-start.ts';
import { ASSUMPTIONS, PRICES, costModel } from '#bench/cost.ts';
import { measureDynamoDbUsage } from '#bench/dynamodb/usage.ts';
import { SEEDED_PETS, startFixture } from '#bench/dynamodb/fixture.ts';
import { measuredCommit } from '#bench/git-commit.ts';
import { LOAD, measureLoad } from '#bench/load.ts';
import { judgeTargets, report } from '#bench/report.ts';
import type { Measurements } from '#bench/report.ts';
import { OUT_DIR, PROJECT_ROOT } from '#bench/subjects.ts';
import { WARM_LOOPS, measureWarm } from '#bench/processes/warm.ts';
import { BURST_READS, measureWire } from '#bench/wire.ts';

const FULL = { coldStartRuns: COLD_START_RUNS, warm: WARM_LOOPS, load: LOAD, seededPets: SEEDED_PETS };
/** Every step once, small: a few cold starts, a few hundred warm invocations, a second of load. */
const QUICK: typeof FULL = {
  coldStartRuns: 2,
  warm: { rounds: 1, warmup: 10, iterations: 20 },
  load: { connections: 2, durationSeconds: 1 },
  seededPets: 200,
};

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, write: { type: 'boolean' } } });
if (values.quick && values.write) {
  console.error('bench: --quick figures mean nothing; --write takes a full run.');
  process.exit(2);
}
const size = values.quick ? QUICK : FULL;
const resultsFile = values.write ? `${PROJECT_ROOT}bench/results.json` : `${OUT_DIR}/results.json`;

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);

async function step<T>(name: string, measure: () => Promise<T>): Promise<T> {
  process.stderr.write(`bench: ${name}...`);
  const result = await measure();
  process.stderr.write(` done (${seconds()} s)\n`);
  return result;
}

const bundles = await step('bundling', buildBundles);
const fixture = await step('embedded DynamoDB and seed data', () => startFixture(size.seededPets));
const { coldStarts, warm, dynamoDb, wire } = await (async () => {
  try {
    return {
      coldStarts: await step(`cold starts (${size.coldStartRuns} processes each)`, () =>
        measureColdStarts(fixture, size.coldStartRuns),
      ),
      warm: await step(`warm invocations (${size.warm.rounds * size.warm.iterations} each)`, () =>
        measureWarm(fixture, size.warm),
      ),
      dynamoDb: await step('DynamoDB requests and capacity', () => measureDynamoDbUsage(fixture)),
      wire: await step(`bytes on the wire, a ${BURST_READS}-read burst`, () => measureWire(fixture)),
    };
  } finally {
    await fixture.close();
  }
})();
const load = await step(`local server under load (${size.load.durationSeconds} s per route)`, () =>
  measureLoad(size.load),
);
const cost = costModel(warm, coldStarts, dynamoDb);

const measurements: Measurements = { bundles, coldStarts, warm, dynamoDb, wire, load, cost };
const targets = judgeTargets(measurements);
const results = {
  date: new Date().toISOString(),
  commit: measuredCommit(),
  environment: {
    node: process.version,
    platform: `${platform()} ${process.arch}`,
    cpu: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    /** Other work on the machine makes every figure noisier (1, 5, 15 minutes, at the end). */
    loadAverage: loadavg(),
  },
  settings: { ...size, quick: values.quick ?? false, prices: PRICES, assumptions: ASSUMPTIONS },
  ...measurements,
  targets,
};
await mkdir(OUT_DIR, { recursive: true });
await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);

console.log(report(measurements, targets));
const failed = targets.filter((target) => !target.pass).length;
console.log(
  `\n${failed === 0 ? 'All targets hold' : `${failed} of ${targets.length} targets fail`}; ` +
    `${resultsFile.slice(PROJECT_ROOT.length)} written in ${seconds()} s.`,
);
