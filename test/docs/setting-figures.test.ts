// The settings the documents quote (TTLs, limits, throttles, timeouts, shards, quotas), found by the
// words around them and compared with the constants and stage settings that define them: a changed
// constant fails here, naming each document that still says the old figure. Measured figures are
// not settings: they live in docs/performance.md and docs/capacity.md, from their runs.
import { describe, expect, it } from '@jest/globals';
import { RATE_WINDOW_SECONDS } from '#lib/api/petstore-firewall.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { DEFAULT_MAX_INSTANCES } from '#local/lambda/child-process-runner.ts';
import { DEFAULT_KEEP } from '#scripts/prune-versions.ts';
import { RETRY_AFTER_SECONDS } from '#shared/api-error.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '#shared/http/idempotency-key.ts';
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { LIST_PAGE_MAX_AGE_SECONDS } from '#shared/http/routes.ts';
import { NAME_MAX_CODE_POINTS, PAGE_SIZE } from '#shared/schemas.ts';
import { ID_BLOCK_SIZE, PET_ID_COUNTERS, SPREAD_FIRST_ROUND } from '#shared/store/id-allocator.ts';
import { PET_READ_CACHE_ENTRIES } from '#shared/store/pet-read-cache.ts';
import { RECORD_TTL_SECONDS } from '#shared/store/idempotency-records.ts';
import { PET_SHARDS, SHARD_ID_SPAN, STATUS_INDEX } from '#shared/store/table.ts';
import { DYNAMODB_TIMEOUTS, FUNCTION_TIMEOUT_SECONDS, IN_FLIGHT_MS } from '#shared/timeouts.ts';
import { KEY_TRAFFIC } from '#lib/cost-basis.ts';
import { projectFiles, readRepoFile, REPO_ROOT } from '#test/support/repository.ts';

const { staging, production } = STAGE_SETTINGS;
// The documents quote one of each for both stages (a test below holds them equal).
const { authorizerCacheSeconds } = production;
const latencyWindow = production.alarms.p99LatencyWindow;
const minutes = (seconds: number) => seconds / 60;
const hours = (seconds: number) => seconds / 3600;

/** Each capture group of `pattern`, wherever a document matches it, must read `figures`. */
type Quote = { pattern: RegExp; figures: number[] };
type Setting = { setting: string; quotes: Quote[] };

const quote = (pattern: RegExp, ...figures: number[]): Quote => ({ pattern, figures });

const SETTINGS: Setting[] = [
  {
    setting: 'authorizerCacheSeconds (lib/stage-settings.ts)',
    quotes: [
      quote(/authorizer cache TTL \((\d+) s\)/, authorizerCacheSeconds),
      quote(/caches the authorizer's answers for (\d+) s/, authorizerCacheSeconds),
      quote(/result cache (\d+) s/, authorizerCacheSeconds),
      quote(/answer for a key up to\s+(\d+) s/, authorizerCacheSeconds),
      quote(/expired key can still pass for up to\s+(\d+) s/, authorizerCacheSeconds),
      quote(/a cached answer lives: up to\s+(\d+) s/, authorizerCacheSeconds),
      quote(/old key is refused within (\d+) minutes/, minutes(authorizerCacheSeconds)),
      quote(/Authorizer cache (\d+) s/, authorizerCacheSeconds),
      quote(/the authorizer cache \((\d+) s per key\)/, authorizerCacheSeconds),
      quote(/caches the policy per key for (\d+) s/, authorizerCacheSeconds),
      quote(/revoked key keeps working for up to (\d+) minutes/, minutes(authorizerCacheSeconds)),
      quote(/one miss per key and (\d+) minutes/, minutes(authorizerCacheSeconds)),
      quote(
        /(\d+) % for a key that sends a request every (\d+) s/,
        KEY_TRAFFIC.authorizerCacheHitRate * 100,
        KEY_TRAFFIC.requestIntervalSeconds,
      ),
      quote(/authorizer cache hit rate \| (\d+) %/, KEY_TRAFFIC.authorizerCacheHitRate * 100),
    ],
  },
  {
    setting: 'LIST_PAGE_MAX_AGE_SECONDS (shared/http/routes.ts), production listCache',
    quotes: [
      quote(/list pages cached for (\d+) s/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/may be up to (\d+) seconds old/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/within (\d+) seconds of its 201/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/from the stage cache, up to (\d+) seconds old/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/LIST_PAGE_MAX_AGE_SECONDS \((\d+) s\)/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/GET \/pets only, encrypted, for (\d+) s/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/DynamoDB fault is served for up to (\d+) s/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/for every caller of \?limit=\d+ for up to (\d+) s/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/bounded by the contract's (\d+) s/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/stage cache \((\d+) s per limit/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/at most once per (\d+) s per limit/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(/a list page may be (\d+) s old in production/, LIST_PAGE_MAX_AGE_SECONDS),
      quote(
        /stage cache of GET \/pets: cluster, TTL \| none \| ([\d.]+) GB, (\d+) s/,
        Number(production.listCache?.clusterSizeGb),
        LIST_PAGE_MAX_AGE_SECONDS,
      ),
      quote(/the ([\d.]+) GB cluster is/, Number(production.listCache?.clusterSizeGb)),
    ],
  },
  {
    setting: 'throttling and perKeyLimits (lib/stage-settings.ts)',
    quotes: [
      quote(
        /throttling of each method, requests\/s \(burst\) \| ([\d,]+) \(([\d,]+)\) \| ([\d,]+) \(([\d,]+)\)/,
        staging.throttling.rateLimit,
        staging.throttling.burstLimit,
        production.throttling.rateLimit,
        production.throttling.burstLimit,
      ),
      quote(
        /throttling of each method ([\d,]+)\/([\d,]+) and ([\d,]+)\/([\d,]+) requests\/s/,
        staging.throttling.rateLimit,
        staging.throttling.burstLimit,
        production.throttling.rateLimit,
        production.throttling.burstLimit,
      ),
      quote(
        /production's method throttle \| ([\d,]+) requests\/s, burst ([\d,]+)/,
        production.throttling.rateLimit,
        production.throttling.burstLimit,
      ),
      quote(
        /per-key limit, requests\/s \(burst\), quota \| ([\d,]+) \(([\d,]+)\), ([\d,]+)\/day \| ([\d,]+) \(([\d,]+)\), ([\d,]+)\/day/,
        staging.perKeyLimits.rateLimit,
        staging.perKeyLimits.burstLimit,
        staging.perKeyLimits.requestsPerDay,
        production.perKeyLimits.rateLimit,
        production.perKeyLimits.burstLimit,
        production.perKeyLimits.requestsPerDay,
      ),
      quote(/staging's (\d+) requests a second/, staging.perKeyLimits.rateLimit),
      quote(
        /per-key usage plan \| ([\d,]+) requests\/s a key, burst ([\d,]+)/,
        production.perKeyLimits.rateLimit,
        production.perKeyLimits.burstLimit,
      ),
      quote(/per-key daily quota \| ([\d,]+) requests/, production.perKeyLimits.requestsPerDay),
      quote(
        /own limit is ([\d,]+) requests in (\d+) minutes/,
        production.perKeyLimits.rateLimit * RATE_WINDOW_SECONDS,
        minutes(RATE_WINDOW_SECONDS),
      ),
    ],
  },
  {
    setting: 'production firewall.requestsPerIpPer5Minutes (lib/stage-settings.ts)',
    quotes: [
      quote(
        /requests per IP in (\d+) min, repeats\) \| none \| ([\d,]+)/,
        minutes(RATE_WINDOW_SECONDS),
        production.firewall?.requestsPerIpPer5Minutes ?? 0,
      ),
      quote(
        /more than ([\d,]+) requests from one IP address in WAF's (\d+)-minute window/,
        production.firewall?.requestsPerIpPer5Minutes ?? 0,
        minutes(RATE_WINDOW_SECONDS),
      ),
      quote(
        /web ACL, per client IP \| ([\d,]+) requests in (\d+) minutes/,
        production.firewall?.requestsPerIpPer5Minutes ?? 0,
        minutes(RATE_WINDOW_SECONDS),
      ),
    ],
  },
  {
    setting: 'functionMemoryMb and logRetention (lib/stage-settings.ts)',
    quotes: [
      quote(/function memory \| (\d+) MB \| (\d+) MB/, staging.functionMemoryMb, production.functionMemoryMb),
      quote(
        /Function memory (\d+) MB in staging, (\d+) MB in production/,
        staging.functionMemoryMb,
        production.functionMemoryMb,
      ),
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
      quote(
        /log retention \(functions, access, execution\) \| (\d+) weeks \| (\d+) months/,
        staging.logRetention / 7,
        Math.round(production.logRetention / 30),
      ),
    ],
  },
  {
    setting: "PET_SHARDS (shared/store/table.ts), the stages' petShards",
    quotes: [
      quote(/its pets spread over (\d+) shards/, staging.petShards),
      quote(/N = (\d+), the stage setting petShards/, staging.petShards),
      quote(
        /pet shards \(petShards, set when the table is made\) \| (\d+) \| (\d+)/,
        staging.petShards,
        production.petShards,
      ),
      quote(/\| shards \| the stage setting \((\d+)\)/, PET_SHARDS),
      quote(/the blocks go round the table's (\d+) shards/, PET_SHARDS),
      quote(/## Now: (\d+) shards by id range/, PET_SHARDS),
      quote(/the hottest of (\d+)\)/, PET_SHARDS),
      quote(/sharded over (\d+) keys/, PET_SHARDS),
    ],
  },
  {
    setting: 'production warmThroughput (lib/stage-settings.ts)',
    quotes: [
      quote(
        /warm throughput, table \| ([\d,]+) read, ([\d,]+) write units\/s/,
        production.warmThroughput?.table.readUnitsPerSecond ?? 0,
        production.warmThroughput?.table.writeUnitsPerSecond ?? 0,
      ),
      quote(
        /warm throughput, status index \| ([\d,]+) read, ([\d,]+) write units\/s/,
        production.warmThroughput?.indexes[STATUS_INDEX.name]?.readUnitsPerSecond ?? 0,
        production.warmThroughput?.indexes[STATUS_INDEX.name]?.writeUnitsPerSecond ?? 0,
      ),
      quote(
        /warm throughput, table; index \(read\/write units\/s\) \| DynamoDB's own \| ([\d,]+)\/([\d,]+); ([\d,]+)\/([\d,]+)/,
        production.warmThroughput?.table.readUnitsPerSecond ?? 0,
        production.warmThroughput?.table.writeUnitsPerSecond ?? 0,
        production.warmThroughput?.indexes[STATUS_INDEX.name]?.readUnitsPerSecond ?? 0,
        production.warmThroughput?.indexes[STATUS_INDEX.name]?.writeUnitsPerSecond ?? 0,
      ),
    ],
  },
  {
    setting: 'PET_ID_COUNTERS, SPREAD_FIRST_ROUND (shared/store/id-allocator.ts), PET_READ_CACHE_ENTRIES',
    quotes: [
      quote(/COUNTER#0 to COUNTER#(\d+)/, PET_ID_COUNTERS - 1),
      quote(/COUNTER#0 \.\. COUNTER#(\d+)/, PET_ID_COUNTERS - 1),
      quote(/one of (\d+) spread counters/, PET_ID_COUNTERS),
      quote(/takes rounds of its shard from 2\^(\d+) on/, Math.log2(SPREAD_FIRST_ROUND)),
      quote(/s × 2\^47 \+ 2\^(\d+) × (\d+)/, Math.log2(SPREAD_FIRST_ROUND), ID_BLOCK_SIZE),
      quote(/keeps up to ([\d,]+) pets it has read/, PET_READ_CACHE_ENTRIES),
      quote(/up to ([\d,]+) an instance/, PET_READ_CACHE_ENTRIES),
    ],
  },
  {
    setting: 'SHARD_ID_SPAN (shared/store/table.ts): the first id of the second shard',
    quotes: [quote(/(\d+) \(2\^(\d+) \+ 1\)/, SHARD_ID_SPAN + 1, Math.log2(SHARD_ID_SPAN))],
  },
  {
    setting: 'ID_BLOCK_SIZE (shared/store/id-allocator.ts)',
    quotes: [
      quote(/blocks? of (\d+)/, ID_BLOCK_SIZE),
      quote(/one UpdateItem per (\d+) creates/, ID_BLOCK_SIZE),
      quote(/an UpdateItem every (\d+) creates/, ID_BLOCK_SIZE),
      quote(/a lease every (\d+) creates/, ID_BLOCK_SIZE),
      quote(/ids 1 to (\d+)/, ID_BLOCK_SIZE),
    ],
  },
  {
    setting: 'MAX_BODY_BYTES (shared/http/json-body.ts)',
    quotes: [
      quote(/request body over (\d+) KiB \(([\d,]+) bytes\)/, MAX_BODY_BYTES / 1024, MAX_BODY_BYTES),
      quote(/the API's own (\d+) KiB limit/, MAX_BODY_BYTES / 1024),
      quote(/at most (\d+) KiB/, MAX_BODY_BYTES / 1024),
      quote(/bodies over (\d+) KiB are refused/, MAX_BODY_BYTES / 1024),
      quote(/the contract allows (\d+) KiB/, MAX_BODY_BYTES / 1024),
      quote(/the functions' (\d+) KiB limit/, MAX_BODY_BYTES / 1024),
    ],
  },
  {
    setting: 'PAGE_SIZE and NAME_MAX_CODE_POINTS (shared/schemas.ts)',
    quotes: [
      quote(
        /plain decimal integer (\d+)\.\.(\d+) [^.]*?default (\d+)/,
        PAGE_SIZE.min,
        PAGE_SIZE.max,
        PAGE_SIZE.default,
      ),
      quote(
        /limit \(integer (\d+)\.\.(\d+), default (\d+)\)/,
        PAGE_SIZE.min,
        PAGE_SIZE.max,
        PAGE_SIZE.default,
      ),
      quote(/name: must be 1 to (\d+) characters/, NAME_MAX_CODE_POINTS),
      quote(/name: 1 to (\d+) Unicode code points/, NAME_MAX_CODE_POINTS),
      quote(/minLength: 1, maxLength: (\d+)/, NAME_MAX_CODE_POINTS),
    ],
  },
  {
    setting: 'FUNCTION_TIMEOUT_SECONDS, DYNAMODB_TIMEOUTS and IN_FLIGHT_MS (shared/timeouts.ts)',
    quotes: [
      quote(/the functions' (\d+) s timeout/, FUNCTION_TIMEOUT_SECONDS),
      quote(/on ARM64, (\d+) s timeout/, FUNCTION_TIMEOUT_SECONDS),
      quote(/timeout (\d+) s\./, FUNCTION_TIMEOUT_SECONDS),
      quote(
        /(\d+) s connection timeout, a (\d+) s request timeout and at most (\d+) attempts/,
        DYNAMODB_TIMEOUTS.connectionMs / 1000,
        DYNAMODB_TIMEOUTS.requestMs / 1000,
        DYNAMODB_TIMEOUTS.maxAttempts,
      ),
      quote(
        /worst case of (\d+) × \((\d+) s \+ (\d+) s\)/,
        DYNAMODB_TIMEOUTS.maxAttempts,
        DYNAMODB_TIMEOUTS.connectionMs / 1000,
        DYNAMODB_TIMEOUTS.requestMs / 1000,
      ),
      quote(/in flight \(for up to (\d+) s\)/, IN_FLIGHT_MS / 1000),
      quote(/the (\d+) s claim/, IN_FLIGHT_MS / 1000),
      quote(
        /(\d+) s timeout plus (\d+) s\)/,
        FUNCTION_TIMEOUT_SECONDS,
        IN_FLIGHT_MS / 1000 - FUNCTION_TIMEOUT_SECONDS,
      ),
    ],
  },
  {
    setting: 'RECORD_TTL_SECONDS, RETRY_AFTER_SECONDS, CURSOR_SECRET_MIN_LENGTH',
    quotes: [
      quote(/within (\d+) hours answers 201/, hours(RECORD_TTL_SECONDS)),
      quote(/expiresAt, (\d+) hours/, hours(RECORD_TTL_SECONDS)),
      quote(/within (\d+) hours returns the first 201/, hours(RECORD_TTL_SECONDS)),
      quote(/(\d+) to (\d+) visible ASCII characters/, ...idempotencyKeyLengths()),
      quote(/Retry-After: (\d+)/, RETRY_AFTER_SECONDS),
      quote(/(\d+) characters or more/, CURSOR_SECRET_MIN_LENGTH),
      quote(/PETSTORE_CURSOR_SECRET under (\d+) characters/, CURSOR_SECRET_MIN_LENGTH),
    ],
  },
  {
    setting: 'alarms (lib/stage-settings.ts), rollout, prune-versions, local instances',
    quotes: [
      quote(
        /alarm: API 5xx in 5 minutes \| ≥ ([\d,]+) \| ≥ ([\d,]+)/,
        staging.alarms.serverErrorsPer5Minutes,
        production.alarms.serverErrorsPer5Minutes,
      ),
      quote(
        /of the last \d+ minutes \| ≥ ([\d,]+) ms \| ≥ ([\d,]+) ms/,
        staging.alarms.p99LatencyMs,
        production.alarms.p99LatencyMs,
      ),
      quote(
        /(\d+) of the last (\d+) minutes/,
        latencyWindow.datapointsToAlarm,
        latencyWindow.evaluationPeriods,
      ),
      quote(
        /failed invocations of a route function in 5 minutes \| ≥ (\d+) \| ≥ (\d+)/,
        staging.alarms.functionErrorsPer5Minutes,
        production.alarms.functionErrorsPer5Minutes,
      ),
      quote(
        /(\d+)% (?:of the requests )?for (\d+) minutes/,
        ...canary(production.rollout.deploymentConfigName),
      ),
      quote(/keeps (\d+) and the alias targets/, DEFAULT_KEEP),
      quote(/all but the newest (\d+) of each function/, DEFAULT_KEEP),
      quote(/at most (\d+) instances/, DEFAULT_MAX_INSTANCES),
    ],
  },
];

/** The lengths IDEMPOTENCY_KEY_PATTERN allows: {min,max}. */
function idempotencyKeyLengths(): number[] {
  return (/\{(\d+),(\d+)\}/.exec(IDEMPOTENCY_KEY_PATTERN.source) ?? []).slice(1).map(Number);
}

/** CodeDeploy's predefined canaries are named for their share and their minutes. */
function canary(configName: string): number[] {
  const [, percent = 'NaN', wait = 'NaN'] = /Canary(\d+)Percent(\d+)Minutes/.exec(configName) ?? [];
  return [Number(percent), Number(wait)];
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

const readFigure = (written: string) => Number(written.replaceAll(',', ''));

describe('the settings the documents quote', () => {
  it('reads every document', () => {
    expect(DOCUMENTS.map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/api.md',
        'docs/deployment.md',
        'docs/deployment-reference.md',
        'openapi.json',
      ]),
    );
  });

  it('quotes the one authorizer cache TTL and latency window that both stages have', () => {
    expect(staging.authorizerCacheSeconds).toBe(authorizerCacheSeconds);
    expect(staging.alarms.p99LatencyWindow).toEqual(latencyWindow);
  });

  it.each(SETTINGS)('$setting: every document says what the code says', ({ setting, quotes }) => {
    const stale: string[] = [];
    for (const { pattern, figures } of quotes) {
      const found = DOCUMENTS.flatMap(({ path, text }) =>
        [...text.matchAll(new RegExp(pattern.source, 'g'))].map((match) => ({ path, match })),
      );
      if (found.length === 0)
        stale.push(`no document says ${pattern} any more: update this test to the new wording`);
      for (const { path, match } of found) {
        const written = match.slice(1).map((figure) => readFigure(figure ?? ''));
        if (written.some((figure, index) => figure !== figures[index]))
          stale.push(`${path} says "${match[0]}", where the code gives ${figures.join(', ')}`);
      }
    }
    expect({ setting, stale }).toEqual({ setting, stale: [] });
  });
});
