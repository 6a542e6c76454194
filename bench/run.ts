// `npm run bench`: bundles the four functions and their baselines, measures them (cold start,
// warm invocations, DynamoDB usage), loads the local server, prices it all, prints the tables
// and the targets, and writes everything to bench/results.json. See docs/performance.md.
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform } from 'node:os';
import { buildBundles } from '#bench/processes/bundles.ts';
import { COLD_START_RUNS, measureColdStarts } from '#bench/processes/cold-start.ts';
import { ASSUMPTIONS, PRICES, costModel } from '#bench/cost.ts';
import { measureDynamoDbUsage } from '#bench/dynamodb/usage.ts';
import { startFixture } from '#bench/dynamodb/fixture.ts';
import { LOAD, measureLoad } from '#bench/load.ts';
import { judgeTargets, report } from '#bench/report.ts';
import type { Measurements } from '#bench/report.ts';
import { PROJECT_ROOT } from '#bench/subjects.ts';
import { WARM_LOOPS, measureWarm } from '#bench/processes/warm.ts';

const started = performance.now();

async function step<T>(name: string, measure: () => Promise<T>): Promise<T> {
  process.stderr.write(`bench: ${name}...`);
  const result = await measure();
  process.stderr.write(` done (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  return result;
}

const bundles = await step('bundling', buildBundles);
const fixture = await step('embedded DynamoDB and seed data', startFixture);
const { coldStarts, warm, dynamoDb } = await (async () => {
  try {
    return {
      coldStarts: await step(`cold starts (${COLD_START_RUNS} processes each)`, () =>
        measureColdStarts(fixture),
      ),
      warm: await step(`warm invocations (${WARM_LOOPS.rounds * WARM_LOOPS.iterations} each)`, () =>
        measureWarm(fixture),
      ),
      dynamoDb: await step('DynamoDB requests and capacity', () => measureDynamoDbUsage(fixture)),
    };
  } finally {
    await fixture.close();
  }
})();
const load = await step(`local server under load (${LOAD.durationSeconds} s per route)`, measureLoad);
const cost = costModel(warm, coldStarts, dynamoDb);

const measurements: Measurements = { bundles, coldStarts, warm, dynamoDb, load, cost };
const targets = judgeTargets(measurements);
const results = {
  date: new Date().toISOString(),
  environment: {
    node: process.version,
    platform: `${platform()} ${process.arch}`,
    cpu: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    /** Other work on the machine makes every figure noisier (1, 5, 15 minutes, at the end). */
    loadAverage: loadavg(),
  },
  settings: {
    coldStartRuns: COLD_START_RUNS,
    warm: WARM_LOOPS,
    load: LOAD,
    prices: PRICES,
    assumptions: ASSUMPTIONS,
  },
  ...measurements,
  targets,
};
await writeFile(`${PROJECT_ROOT}bench/results.json`, `${JSON.stringify(results, null, 2)}\n`);

console.log(report(measurements, targets));
const failed = targets.filter((target) => !target.pass).length;
console.log(
  `\n${failed === 0 ? 'All targets hold' : `${failed} of ${targets.length} targets fail`}; ` +
    `bench/results.json written in ${((performance.now() - started) / 1000).toFixed(0)} s.`,
);
