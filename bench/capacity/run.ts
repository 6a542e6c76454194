// `npm run capacity`: runs the mix (mix.ts) through the functions on an embedded DynamoDB, scales it
// to the target, and prints the hottest keys, every limit on production's path with its ceiling, the
// quota plan and the cost, beside the layout before. Findings go to bench/.out/, or with --write to
// results.json (`--record before`: as the layout before); --quick is a small run.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { STAGE_SETTINGS } from '../../lib/stage-settings.ts';
import { MAX_PET_SHARDS, PET_SHARDS } from '../../shared/store/table.ts';
import { DEFAULT_MIX, TARGET } from '#bench/capacity/mix.ts';
import type { Mix } from '#bench/capacity/mix.ts';
import { PROJECT_ROOT } from '#bench/subjects.ts';
import { describeFindings, findings, meetsTarget } from '#bench/capacity/report.ts';
import type { CapacityFindings } from '#bench/capacity/report.ts';
import { runWorkload } from '#bench/capacity/workload.ts';
import { measuredCommit } from '#bench/git-commit.ts';
import { benchDurations, costAtRate } from '#bench/capacity/cost.ts';
import { loadAt } from '#bench/capacity/model.ts';
import { PET_READ_CACHE_SECONDS, functionLoads, pathLimits } from '#bench/capacity/limits.ts';
import { QUOTA_PLAN, checkLimits } from '#bench/capacity/quotas.ts';
import { catalogueAfter } from '#bench/capacity/workload.ts';

const RESULTS_FILE = new URL('results.json', import.meta.url);
const UNTRACKED_RESULTS_FILE = new URL('../.out/capacity-results.json', import.meta.url);
/** A workload small enough to run in seconds: its figures mean nothing. */
const QUICK_MIX: Partial<Mix> = { sampleRequests: 300, seededPets: 300, apiKeys: 20 };
const production = STAGE_SETTINGS.production;
/** What the layout is, in a line: kept with the findings, since the layout is what they measure. */
const layout = (shards: number) =>
  `pets in ${shards} shards by id range (PET#<shard>), status index by status and shard ` +
  '(STATUS#<status>#<shard>), one partition per idempotency record';

type Results = { before?: CapacityFindings; now?: CapacityFindings };

const { values } = parseArgs({
  options: {
    record: { type: 'string', default: 'now' },
    quick: { type: 'boolean' },
    write: { type: 'boolean' },
    requests: { type: 'string', default: String(DEFAULT_MIX.sampleRequests) },
    shards: { type: 'string', default: String(PET_SHARDS) },
  },
});
const slot = values.record === 'before' ? 'before' : 'now';
if (values.quick && values.write) {
  console.error('capacity: --quick figures mean nothing; --write takes a full run.');
  process.exit(2);
}
const mix = { ...DEFAULT_MIX, sampleRequests: Number(values.requests), ...(values.quick && QUICK_MIX) };
const petShards = Number(values.shards);
if (!Number.isSafeInteger(mix.sampleRequests) || mix.sampleRequests < 100) {
  console.error('capacity: --requests must be a whole number of at least 100');
  process.exit(2);
}
if (!Number.isInteger(petShards) || petShards < 1 || petShards > MAX_PET_SHARDS) {
  console.error(`capacity: --shards must be a whole number from 1 to ${MAX_PET_SHARDS}`);
  process.exit(2);
}

const listCacheSeconds = production.listCache?.ttlSeconds;
const durationsMs = await benchDurations(production.functionMemoryMb);

const started = performance.now();
const workload = await runWorkload({
  mix,
  petShards,
  listCacheSeconds,
  // Each instance Lambda may run keeps its own copy: as many copies as the account allows is the
  // fewest hits the cache can have.
  petReadCache: { ttlSeconds: PET_READ_CACHE_SECONDS, copies: QUOTA_PLAN.lambdaConcurrency.planned },
  progress: (done, total) => {
    if (done % 5000 === 0 || done === total) process.stderr.write(`capacity: ${done} of ${total} requests\n`);
  },
});
process.stderr.write(`capacity: ran in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

const found = findings(
  workload.sample,
  {
    layout: layout(petShards),
    commit: measuredCommit(),
    recordedAt: new Date().toISOString(),
    mix,
    listCacheSeconds: listCacheSeconds ?? null,
  },
  workload.queriesPerPage,
);
const path = { sample: workload.sample, mix, settings: production, durationsMs };
const limits = checkLimits(pathLimits(path), found.target.rate);
const first = limits.reduce((lowest, limit) => (limit.ceiling < lowest.ceiling ? limit : lowest));
found.catalogue = { pets: catalogueAfter(mix), hours: mix.catalogueHours };
found.limits = limits;
found.pathCeiling = { rate: first.ceiling, setBy: `${first.service}: ${first.name}` };

const rate = found.target.rate;
const { invocations } = functionLoads(path, rate);
const keyLoads = loadAt(workload.sample, rate);
const responseBytesPerRequest =
  workload.sample.requests.reduce((sum, request) => sum + request.count * (request.responseBytes ?? 0), 0) /
  workload.sample.size;
found.cost = costAtRate(
  {
    requests: rate,
    invocations: {
      ...invocations,
      createPet: invocations.createPet * (1 - mix.create.idempotencyKey),
      createPetIdempotent: invocations.createPet * mix.create.idempotencyKey,
    },
    readUnits: keyLoads.reduce((sum, key) => sum + key.readUnits, 0),
    writeUnits: keyLoads.reduce((sum, key) => sum + key.writeUnits, 0),
    responseBytes: rate * responseBytesPerRequest,
  },
  {
    memoryMb: production.functionMemoryMb,
    durationsMs,
    cacheClusterSize: production.listCache?.clusterSizeGb,
  },
);
const results = JSON.parse(await readFile(RESULTS_FILE, 'utf8').catch(() => '{}')) as Results;
results[slot] = found;
const written = values.write ? RESULTS_FILE : UNTRACKED_RESULTS_FILE;
await mkdir(new URL('.', written), { recursive: true });
await writeFile(written, `${JSON.stringify(results, null, 2)}\n`);

const { shares, list, create } = mix;
console.log(
  [
    `# Capacity model: ${mix.sampleRequests.toLocaleString('en-US')} requests, ${shares.listPets * 100}% listPets ` +
      `(${list.statusFiltered * 100}% filtered, ${list.firstPage * 100}% page one), ${shares.getPet * 100}% getPet, ` +
      `${shares.createPet * 100}% createPet (${create.idempotencyKey * 100}% with an Idempotency-Key), ` +
      `${mix.apiKeys.toLocaleString('en-US')} API keys (Zipf ${mix.keySkew}), ${mix.seededPets.toLocaleString('en-US')} pets`,
    `Limits per partition key: 3,000 read units/s, 1,000 write units/s, as one budget. Target: ` +
      `${TARGET.createsPerSecond.toLocaleString('en-US')} creates/s and ${TARGET.readsPerSecond.toLocaleString('en-US')} reads/s together, ` +
      `over a catalogue grown by ${mix.catalogueHours} h of creates (${catalogueAfter(mix).toLocaleString('en-US')} pets).`,
    '',
    ...(results.before && slot === 'now' ? ['## Before', '', describeFindings(results.before), ''] : []),
    `## ${slot === 'now' ? 'Now' : 'Before'}`,
    '',
    describeFindings(found),
    '',
    `Target ${meetsTarget(found) ? 'met' : 'NOT met'}: written to ${relative(PROJECT_ROOT, fileURLToPath(written))}.`,
  ].join('\n'),
);
if (slot === 'now' && !values.quick && !meetsTarget(found)) process.exitCode = 1;
