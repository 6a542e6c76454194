// The settings the documents quote, held to the code that defines them: a changed value fails here,
// naming the document that still says the old one. A stage's settings have one table in the docs
// (docs/stages.md), checked cell by cell; the few constants quoted elsewhere are found by the words
// around them. Measured figures are not settings: docs/performance.md and docs/capacity.md hold them.
import { describe, expect, it } from '@jest/globals';
import { RATE_WINDOW_SECONDS } from '#lib/api/petstore-firewall.ts';
import { PROBE_INTERVAL } from '#lib/monitoring/probe-canary.ts';
import { BURN_PAIRS } from '#lib/monitoring/slo-alarms.ts';
import { KEY_TRAFFIC } from '../../bench/cost-basis.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { DEFAULT_MAX_INSTANCES } from '#local/lambda/child-process-runner.ts';
import { DEFAULT_KEEP } from '#scripts/prune-versions.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '#shared/http/idempotency-key.ts';
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { RETRY_AFTER_SECONDS } from '#shared/api-error.ts';
import { LIST_PAGE_MAX_AGE_SECONDS } from '#shared/http/routes.ts';
import { NAME_MAX_CODE_POINTS, PAGE_SIZE } from '#shared/schemas.ts';
import { ID_BLOCK_SIZE, PET_ID_COUNTERS, SPREAD_FIRST_ROUND } from '#shared/store/id-allocator.ts';
import { PET_READ_CACHE_ENTRIES } from '#shared/store/pet-read-cache.ts';
import { RECORD_TTL_SECONDS } from '#shared/store/idempotency-records.ts';
import { PET_SHARDS } from '#shared/store/table.ts';
import { DYNAMODB_TIMEOUTS, FUNCTION_TIMEOUT_SECONDS, IN_FLIGHT_MS } from '#shared/timeouts.ts';
import { tableAfter } from '#test/support/markdown-links.ts';
import { projectFiles, readRepoFile, REPO_ROOT } from '#test/support/repository.ts';

const { staging, production } = STAGE_SETTINGS;
const SETTINGS_TABLE = { path: 'docs/stages.md', heading: '## Stage settings' };

const figure = (value: number) => value.toLocaleString('en-US');
const minutes = (seconds: number) => seconds / 60;

/** A log retention in days, as the table says it: in months or weeks where it is whole. */
const retention = (days: number) =>
  days % 30 === 0 ? `${days / 30} months` : days % 7 === 0 ? `${days / 7} weeks` : `${days} days`;

/** CodeDeploy's predefined configurations are named for their share and their minutes. */
function rollout({ deploymentConfigName }: StageSettings['rollout']): string {
  const [, percent, wait] = /Canary(\d+)Percent(\d+)Minutes/.exec(deploymentConfigName) ?? [];
  if (/AllAtOnce$/.test(deploymentConfigName)) return 'all at once';
  return percent ? `canary, ${percent}% for ${wait} minutes` : deploymentConfigName;
}

const window = production.alarms.p99LatencyWindow;

/** A share as the table writes it: 0.999 is `99.9 %`. */
const percent = (share: number) => `${Number((share * 100).toFixed(3))} %`;

/** The routes' objectives: once when every route has the same, else each with its route. */
function objectives({ slos }: StageSettings): string {
  const cell = ({ availability, latency }: StageSettings['slos']['listPets']) =>
    `${percent(availability)}; ${percent(latency.objective)} within ${figure(latency.thresholdMs)} ms`;
  const cells = Object.entries(slos).map(([route, slo]) => [route, cell(slo)]);
  const distinct = new Set(cells.map(([, text]) => text));
  return distinct.size === 1 ? [...distinct].join('') : cells.map((each) => each.join(' ')).join('; ');
}

/** Each row of the table: its label, and what its cell says for a stage. */
const ROWS: [label: string, cell: (stage: StageSettings) => string][] = [
  [
    'throttling of each method, requests/s (burst)',
    ({ throttling }) => `${figure(throttling.rateLimit)} (${figure(throttling.burstLimit)})`,
  ],
  [
    'per-key limit, requests/s (burst), quota',
    ({ perKeyLimits: limits }) =>
      `${figure(limits.rateLimit)} (${figure(limits.burstLimit)}), ${figure(limits.requestsPerDay)}/day`,
  ],
  [
    "authorizer cache of a key's answer (the revocation delay)",
    (stage) => `${stage.authorizerCacheSeconds} s`,
  ],
  ['log retention (functions, access, execution)', (stage) => retention(stage.logRetention)],
  ['execution log level (API Gateway)', (stage) => `\`${stage.executionLogLevel}\``],
  ['removal policy (table, secret, logs, alarm key)', (stage) => String(stage.removalPolicy)],
  ['table deletion protection', (stage) => (stage.deletionProtection ? 'on' : 'off')],
  ['function memory', (stage) => `${stage.functionMemoryMb} MB`],
  ['pet shards (`petShards`, set when the table is made)', (stage) => `${stage.petShards}`],
  ['rollout of a new version', (stage) => rollout(stage.rollout)],
  [
    `web ACL (managed rules, requests per IP in ${minutes(RATE_WINDOW_SECONDS)} min, repeats)`,
    ({ firewall }) => (firewall ? figure(firewall.requestsPerIpPer5Minutes) : 'none'),
  ],
  [
    'stage cache of `GET /pets`: cluster, TTL',
    ({ listCache }) => (listCache ? `${listCache.clusterSizeGb} GB, ${listCache.ttlSeconds} s` : 'none'),
  ],
  [
    'warm throughput, table; index (read/write units/s)',
    ({ warmThroughput: warm }) => {
      if (!warm) return "DynamoDB's own";
      const units = ({ readUnitsPerSecond: read, writeUnitsPerSecond: write }: typeof warm.table) =>
        `${figure(read)}/${figure(write)}`;
      return [warm.table, ...Object.values(warm.indexes)].map((each) => (each ? units(each) : '')).join('; ');
    },
  ],
  ["alarm: a route's 5xx in 5 minutes", ({ alarms }) => `≥ ${figure(alarms.serverErrorsPer5Minutes)}`],
  [
    `alarm: a route's p99 latency per minute, ${window.datapointsToAlarm} of the last ${window.evaluationPeriods} minutes`,
    ({ alarms }) => `≥ ${figure(alarms.p99LatencyMs)} ms`,
  ],
  [
    'alarm: failed invocations of a route function in 5 minutes',
    ({ alarms }) => `≥ ${figure(alarms.functionErrorsPer5Minutes)}`,
  ],
  ['SLO of each route, 28 days: not 5xx; answered within', objectives],
  ['the probe also creates a pet and replays it', ({ probe }) => (probe.creates ? 'yes' : 'no')],
];

describe(`the stage settings table (${SETTINGS_TABLE.path})`, () => {
  const rows = tableAfter(readRepoFile(SETTINGS_TABLE.path), SETTINGS_TABLE.heading);

  it('has a row for each setting, and no other', () => {
    expect(rows.map(([label]) => label)).toEqual(ROWS.map(([label]) => label));
  });

  it('quotes the one latency window that both stages have', () => {
    expect(staging.alarms.p99LatencyWindow).toEqual(window);
  });

  it.each(ROWS)('%s: says what lib/stage-settings.ts says', (label, cell) => {
    const [, stagingCell, productionCell] = rows.find(([name]) => name === label) ?? [];
    expect({
      document: SETTINGS_TABLE.path,
      label,
      staging: stagingCell,
      production: productionCell,
    }).toEqual({
      document: SETTINGS_TABLE.path,
      label,
      staging: cell(staging),
      production: cell(production),
    });
  });
});

/** Each capture group of `pattern`, wherever a document matches it, must read `figures`. */
type Quote = { pattern: RegExp; figures: number[] };
const quote = (pattern: RegExp, ...figures: number[]): Quote => ({ pattern, figures });

/** The constants quoted outside the table, where a reader needs the figure in place. */
const QUOTES: { constant: string; quotes: Quote[] }[] = [
  {
    constant: 'authorizerCacheSeconds (the stages share one) and KEY_TRAFFIC (bench/cost-basis.ts)',
    quotes: [
      quote(/answer for a key up to\s+(\d+) s/, production.authorizerCacheSeconds),
      quote(
        /(\d+) % for a key that sends a request every (\d+) s/,
        KEY_TRAFFIC.authorizerCacheHitRate * 100,
        KEY_TRAFFIC.requestIntervalSeconds,
      ),
      quote(/authorizer cache hit rate \| (\d+) %/, KEY_TRAFFIC.authorizerCacheHitRate * 100),
    ],
  },
  {
    constant: 'LIST_PAGE_MAX_AGE_SECONDS (shared/http/routes.ts)',
    quotes: [
      quote(/up to (\d+) seconds old/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/within (\d+) seconds of its 201/, LIST_PAGE_MAX_AGE_SECONDS),
    ],
  },
  {
    constant: 'functionMemoryMb and PET_SHARDS, as the benchmarks and the capacity model took them',
    quotes: [
      quote(
        /(\d+) MB, staging's setting; production runs (\d+) MB/,
        staging.functionMemoryMb,
        production.functionMemoryMb,
      ),
      quote(
        /production's (\d+) MB is the right setting; (\d+) MB is fine for staging/,
        production.functionMemoryMb,
        staging.functionMemoryMb,
      ),
      quote(/\| shards \| the stage setting \((\d+)\)/, PET_SHARDS),
    ],
  },
  {
    constant: 'the id allocator (shared/store/id-allocator.ts) and the pet read cache',
    quotes: [
      quote(/COUNTER#0 \.\. COUNTER#(\d+)/, PET_ID_COUNTERS - 1),
      quote(/one of (\d+) spread counters/, PET_ID_COUNTERS),
      quote(/takes rounds of its shard from 2\^(\d+) on/, Math.log2(SPREAD_FIRST_ROUND)),
      quote(/s × 2\^47 \+ 2\^(\d+) × (\d+)/, Math.log2(SPREAD_FIRST_ROUND), ID_BLOCK_SIZE),
      quote(/blocks? of (\d+)/, ID_BLOCK_SIZE),
      quote(/UpdateItem (?:per|every) (\d+) creates/i, ID_BLOCK_SIZE),
      quote(/ids 1 to (\d+)/, ID_BLOCK_SIZE),
      quote(/keeps up to ([\d,]+) pets it has read/, PET_READ_CACHE_ENTRIES),
    ],
  },
  {
    constant: 'the request limits: MAX_BODY_BYTES, PAGE_SIZE, NAME_MAX_CODE_POINTS',
    quotes: [
      quote(/body over (\d+) KiB \(([\d,]+) bytes\)/, MAX_BODY_BYTES / 1024, MAX_BODY_BYTES),
      quote(/the functions' (\d+) KiB limit/, MAX_BODY_BYTES / 1024),
      quote(
        /plain decimal integer (\d+)\.\.(\d+) [^.]*?default (\d+)/,
        PAGE_SIZE.min,
        PAGE_SIZE.max,
        PAGE_SIZE.default,
      ),
      quote(/name: must be 1 to (\d+) characters/, NAME_MAX_CODE_POINTS),
      quote(/name: 1 to (\d+) Unicode code points/, NAME_MAX_CODE_POINTS),
    ],
  },
  {
    constant: 'the timeouts (shared/timeouts.ts)',
    quotes: [
      quote(/(\d+) s timeout\b/, FUNCTION_TIMEOUT_SECONDS),
      quote(
        /(\d+) s connection timeout, a (\d+) s request timeout and at most (\d+) attempts/,
        DYNAMODB_TIMEOUTS.connectionMs / 1000,
        DYNAMODB_TIMEOUTS.requestMs / 1000,
        DYNAMODB_TIMEOUTS.maxAttempts,
      ),
      quote(/idempotency_conflict`?, for up to (\d+) s/, IN_FLIGHT_MS / 1000),
      quote(/wait out the (\d+) s/, IN_FLIGHT_MS / 1000),
      quote(/Retry-After \|[^|]*\| (\d+) \(seconds\)/, RETRY_AFTER_SECONDS),
    ],
  },
  {
    constant: 'idempotency records, the cursor secret, the local servers and prune-versions',
    quotes: [
      quote(/within (\d+) hours/, RECORD_TTL_SECONDS / 3600),
      quote(/(\d+) to (\d+) visible ASCII characters/, ...idempotencyKeyLengths()),
      quote(/(\d+) characters or more/, CURSOR_SECRET_MIN_LENGTH),
      quote(/at most (\d+) instances/, DEFAULT_MAX_INSTANCES),
      quote(/newest (\d+) of each function/, DEFAULT_KEEP),
    ],
  },
  {
    constant: "the probe's interval and the SLOs' burn-rate pairs (lib/monitoring/)",
    quotes: [
      quote(/calls each stage every (\d+) minutes/, PROBE_INTERVAL.toMinutes()),
      quote(/walks the API every (\d+) minutes/, PROBE_INTERVAL.toMinutes()),
      quote(
        /Fast fires at ([\d.]+) times over both (\d+) hours? and (\d+) minutes, Slow at ([\d.]+) times over both (\d+) hours? and (\d+) minutes/,
        ...BURN_PAIRS.flatMap(({ burnRate, long, short }) => [burnRate, long.toHours(), short.toMinutes()]),
      ),
      quote(/Fast ([\d.]+)x, Slow ([\d.]+)x/, ...BURN_PAIRS.map(({ burnRate }) => burnRate)),
    ],
  },
];

/** The lengths IDEMPOTENCY_KEY_PATTERN allows: {min,max}. */
function idempotencyKeyLengths(): number[] {
  return (/\{(\d+),(\d+)\}/.exec(IDEMPOTENCY_KEY_PATTERN.source) ?? []).slice(1).map(Number);
}

/** Every document (openapi.json's descriptions too), as one line of words: no Markdown marks. */
const DOCUMENTS = projectFiles(REPO_ROOT)
  .filter((path) => path.endsWith('.md') || path === 'openapi.json')
  .map((path) => ({
    path: path.replaceAll('\\', '/'),
    text: readRepoFile(path)
      .replace(/\*\*|`/g, '')
      .replace(/\s+/g, ' '),
  }));

describe('the constants the documents quote', () => {
  it('reads every document', () => {
    expect(DOCUMENTS.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md', 'docs/local.md', 'docs/stages.md', 'openapi.json']),
    );
  });

  it.each(QUOTES)('$constant: every document says what the code says', ({ constant, quotes }) => {
    const stale: string[] = [];
    for (const { pattern, figures } of quotes) {
      const found = DOCUMENTS.flatMap(({ path, text }) =>
        [...text.matchAll(new RegExp(pattern.source, `g${pattern.flags}`))].map((match) => ({ path, match })),
      );
      if (found.length === 0)
        stale.push(`no document says ${pattern} any more: update this test to the new wording`);
      for (const { path, match } of found) {
        const written = match.slice(1).map((each) => Number((each ?? '').replaceAll(',', '')));
        if (written.some((each, index) => each !== figures[index]))
          stale.push(`${path} says "${match[0]}", where the code gives ${figures.join(', ')}`);
      }
    }
    expect({ constant, stale }).toEqual({ constant, stale: [] });
  });
});
