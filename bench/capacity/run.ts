// `npm run capacity`: runs the mix (bench/capacity/mix.ts) through the functions on an embedded
// DynamoDB, scales the units per partition key to the target rate, and prints the hottest keys and
// the ceiling beside the layout before (kept in results.json). Findings go to bench/.out/, or with
// --write to results.json (`--record before`: as the layout before); --quick is a small run.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { MAX_PET_SHARDS, PET_SHARDS } from '#shared/store/table.ts';
import { DEFAULT_MIX, TARGET } from '#bench/capacity/mix.ts';
import type { Mix } from '#bench/capacity/mix.ts';
import { PROJECT_ROOT } from '#bench/subjects.ts';
import { describeFindings, findings, meetsTarget } from '#bench/capacity/report.ts';
import type { CapacityFindings } from '#bench/capacity/report.ts';
import { runWorkload } from '#bench/capacity/workload.ts';
import { measuredCommit } from '#bench/git-commit.ts';
import { costAtRate } from '#bench/capacity/cost.ts';
import { missShare, operationSample } from '#bench/capacity/model.ts';

const RESULTS_FILE = new URL('results.json', import.meta.url);
const UNTRACKED_RESULTS_FILE = new URL('../.out/capacity-results.json', import.meta.url);
/** A workload small enough to run in seconds: its figures mean nothing. */
const QUICK_MIX: Partial<Mix> = { sampleRequests: 300, seededPets: 300, apiKeys: 20 };
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

const listCacheSeconds = STAGE_SETTINGS.production.listCache?.ttlSeconds;

const started = performance.now();
const workload = await runWorkload({
  mix,
  petShards,
  listCacheSeconds,
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
const shareOf = (operation: string) =>
  operationSample(workload.sample, operation).size / workload.sample.size;
found.cost = await costAtRate(
  found.target.rate,
  {
    listPets: shareOf('listPets'),
    getPet: shareOf('getPet'),
    createPet: shareOf('createPet'),
    idempotencyKey: mix.create.idempotencyKey,
  },
  {
    memoryMb: STAGE_SETTINGS.production.functionMemoryMb,
    listCacheHits: 1 - missShare(workload.sample, found.target.rate, 'listPets'),
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
    `Limits per partition key: 3,000 read units/s, 1,000 write units/s. Target: ` +
      `${TARGET.createsPerSecond.toLocaleString('en-US')} creates/s and ${TARGET.readsPerSecond.toLocaleString('en-US')} reads/s together.`,
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
