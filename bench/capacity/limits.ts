// Every AWS limit a request meets on its way through production's stack: what it allows (a stage
// setting, a quota as quotas.ts plans it, or a fixed limit of AWS), the load the mix puts on it at a
// request rate, and where AWS states it. Each load grows with the rate, so the rate at which a limit
// is reached is its ceiling, and the lowest ceiling is the whole path's.
import { RATE_WINDOW_SECONDS } from '../../lib/api/petstore-firewall.ts';
import type { StageSettings } from '../../lib/stage-settings.ts';
import { ROUTES } from '../../shared/http/routes.ts';
import { STATUS_INDEX } from '../../shared/store/table.ts';
import { ID_BLOCK_SIZE, PET_ID_COUNTERS } from '../../shared/store/id-allocator.ts';
import { POPULAR_PET_CACHE_KEY, busiestKeyShare } from '#bench/capacity/mix.ts';
import type { Mix } from '#bench/capacity/mix.ts';
import {
  PARTITION_LIMITS,
  cachedBytes,
  loadAt,
  missShare,
  operationSample,
  partitionShare,
} from '#bench/capacity/model.ts';
import type { Sample } from '#bench/capacity/model.ts';
import { QUOTA_PLAN, bucketDemand } from '#bench/capacity/quotas.ts';
import type { Limit } from '#bench/capacity/quotas.ts';

const SOURCES = {
  apiGatewayQuotas: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html',
  apiGatewayThrottling:
    'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html',
  usagePlans: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-usage-plans.html',
  apiGatewayCache: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-caching.html',
  wafRateBased:
    'https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based.html',
  lambdaQuotas: 'https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html',
  lambdaConcurrency: 'https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html',
  lambdaScaling: 'https://docs.aws.amazon.com/lambda/latest/dg/scaling-behavior.html',
  dynamoDbPartitions:
    'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html',
  dynamoDbCombined: 'https://repost.aws/knowledge-center/dynamodb-table-throttled',
  dynamoDbQuotas: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html',
  dynamoDbWarm: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html',
} as const;

/** How long an instance keeps a pet it read, at least: Lambda keeps instances warm for minutes. */
export const PET_READ_CACHE_SECONDS = 60;
/** Each execution environment serves at most this many requests a second: the account's rate cap. */
const INVOCATIONS_PER_CONCURRENCY = 10;
/** Lambda's scaling rate per function: new environments, and added requests a second, per window. */
const LAMBDA_SCALING = { environments: 1_000, requestsPerSecond: 10_000, windowSeconds: 10 };
/** A new on-demand table serves this much at once; it doubles its previous peak at most every 30 minutes. */
const NEW_ON_DEMAND_TABLE = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 };
/** One item lives on one partition: it serves that partition's reads at most. */
const ITEM_READ_UNITS = PARTITION_LIMITS.readUnits;

/** Wall time of one invocation of each function, as Lambda bills it at the stage's memory size. */
export type FunctionDurations = {
  listPets: number;
  getPet: number;
  createPet: number;
  createPetIdempotent: number;
  authorizer: number;
};

export type PathInputs = {
  sample: Sample;
  mix: Mix;
  settings: StageSettings;
  durationsMs: FunctionDurations;
};

/** What reaches each function, and how many instances it keeps busy, at `rate`. */
export function functionLoads({ sample, mix, durationsMs }: PathInputs, rate: number) {
  const rateOf = (operation: string) => (rate * operationSample(sample, operation).size) / sample.size;
  const invocations = {
    listPets: rateOf('listPets') * missShare(sample, rate, 'listPets'),
    getPet: rateOf('getPet'),
    createPet: rateOf('createPet'),
    authorizer: rate * missShare(sample, rate, 'authorizer'),
  };
  const createMs =
    (1 - mix.create.idempotencyKey) * durationsMs.createPet +
    mix.create.idempotencyKey * durationsMs.createPetIdempotent;
  const concurrency = {
    listPets: (invocations.listPets * durationsMs.listPets) / 1000,
    getPet: (invocations.getPet * durationsMs.getPet) / 1000,
    createPet: (invocations.createPet * createMs) / 1000,
    authorizer: (invocations.authorizer * durationsMs.authorizer) / 1000,
  };
  const sum = (values: Record<string, number>) =>
    Object.values(values).reduce((total, value) => total + value, 0);
  return {
    invocations,
    concurrency,
    totalInvocations: sum(invocations),
    totalConcurrency: sum(concurrency),
  };
}

/** Read and write units a second on the base table and on each index, at `rate`. */
function tableLoads(sample: Sample, rate: number) {
  const totals = new Map<string, { readUnits: number; writeUnits: number }>();
  for (const key of loadAt(sample, rate)) {
    const name = key.index ?? 'table';
    const total = totals.get(name) ?? { readUnits: 0, writeUnits: 0 };
    total.readUnits += key.readUnits;
    total.writeUnits += key.writeUnits;
    totals.set(name, total);
  }
  return (name: string) => totals.get(name) ?? { readUnits: 0, writeUnits: 0 };
}

/** The popular pet's read units a second at `rate`: what its one item serves, past getPet's cache. */
function popularPetReads({ requests, size }: Sample, rate: number): number {
  const popular = requests.filter((request) => request.cache?.key === POPULAR_PET_CACHE_KEY);
  return loadAt({ requests: popular, size }, rate).reduce((sum, key) => sum + key.readUnits, 0);
}

/** Every limit on the path of the mix through production's stage, with production's settings. */
export function pathLimits(inputs: PathInputs): Limit[] {
  const { sample, mix, settings } = inputs;
  const loads = (rate: number) => functionLoads(inputs, rate);
  const busiestKey = busiestKeyShare(mix);
  const busiestShare = Math.max(
    ...ROUTES.map(({ operationId }) => operationSample(sample, operationId).size / sample.size),
  );
  const busiestMethod = (rate: number) => rate * busiestShare;
  const tables = (rate: number) => tableLoads(sample, rate);
  const warm = settings.warmThroughput;
  const limits: Limit[] = [
    {
      service: 'API Gateway',
      name: 'account throttle rate',
      unit: 'requests/s',
      allows: QUOTA_PLAN.apiGatewayRate.planned,
      loadAt: (rate) => rate,
      source: SOURCES.apiGatewayQuotas,
      quota: QUOTA_PLAN.apiGatewayRate,
    },
    {
      service: 'API Gateway',
      name: 'account burst (bucket held by arrivals)',
      unit: 'requests',
      allows: QUOTA_PLAN.apiGatewayBurst.planned,
      loadAt: (rate) => bucketDemand(rate, QUOTA_PLAN.apiGatewayRate.planned),
      source: SOURCES.apiGatewayThrottling,
      quota: QUOTA_PLAN.apiGatewayBurst,
    },
    {
      service: 'API Gateway',
      name: 'stage throttle rate, each method (the busiest)',
      unit: 'requests/s',
      allows: settings.throttling.rateLimit,
      loadAt: busiestMethod,
      source: SOURCES.apiGatewayThrottling,
    },
    {
      service: 'API Gateway',
      name: 'stage throttle burst, each method (the busiest)',
      unit: 'requests',
      allows: settings.throttling.burstLimit,
      loadAt: (rate) => bucketDemand(busiestMethod(rate), settings.throttling.rateLimit),
      source: SOURCES.apiGatewayThrottling,
    },
    {
      service: 'API Gateway',
      name: 'usage plan rate, per key (the busiest)',
      unit: 'requests/s',
      allows: settings.perKeyLimits.rateLimit,
      loadAt: (rate) => rate * busiestKey,
      source: SOURCES.usagePlans,
    },
    {
      service: 'API Gateway',
      name: 'usage plan burst, per key (the busiest)',
      unit: 'requests',
      allows: settings.perKeyLimits.burstLimit,
      loadAt: (rate) => bucketDemand(rate * busiestKey, settings.perKeyLimits.rateLimit),
      source: SOURCES.usagePlans,
    },
    {
      service: 'API Gateway',
      name: 'usage plan quota, per key (the busiest)',
      unit: 'requests/day',
      allows: settings.perKeyLimits.requestsPerDay,
      loadAt: (rate) => rate * busiestKey * 86_400,
      source: SOURCES.usagePlans,
    },
    {
      service: 'API Gateway',
      name: 'stage cache size (an answer a cycle, kept for its TTL)',
      unit: 'bytes',
      allows: Number(settings.listCache?.clusterSizeGb ?? 0) * 2 ** 30,
      loadAt: (rate) => cachedBytes(sample, rate, 'listPets'),
      source: SOURCES.apiGatewayCache,
    },
    {
      service: 'AWS WAF',
      name: `rate-based rule, per client IP (the busiest key's ${mix.addressesPerKey} addresses)`,
      unit: `requests/${RATE_WINDOW_SECONDS} s`,
      allows: settings.firewall?.requestsPerIpPer5Minutes ?? Infinity,
      loadAt: (rate) => ((rate * busiestKey) / mix.addressesPerKey) * RATE_WINDOW_SECONDS,
      source: SOURCES.wafRateBased,
    },
    {
      service: 'Lambda',
      name: 'concurrent executions (all functions)',
      unit: 'instances',
      allows: QUOTA_PLAN.lambdaConcurrency.planned,
      loadAt: (rate) => loads(rate).totalConcurrency,
      source: SOURCES.lambdaQuotas,
      quota: QUOTA_PLAN.lambdaConcurrency,
    },
    {
      service: 'Lambda',
      name: `invocation rate: ${INVOCATIONS_PER_CONCURRENCY} per second per unit of concurrency quota`,
      unit: 'invocations/s',
      allows: INVOCATIONS_PER_CONCURRENCY * QUOTA_PLAN.lambdaConcurrency.planned,
      loadAt: (rate) => loads(rate).totalInvocations,
      source: SOURCES.lambdaConcurrency,
      quota: QUOTA_PLAN.lambdaConcurrency,
      quotaScale: INVOCATIONS_PER_CONCURRENCY,
    },
    {
      service: 'Lambda',
      name: `scaling: new environments per ${LAMBDA_SCALING.windowSeconds} s, the busiest function, over the ramp`,
      unit: 'environments',
      allows: LAMBDA_SCALING.environments,
      loadAt: (rate) =>
        (Math.max(...Object.values(loads(rate).concurrency)) / mix.rampSeconds) *
        LAMBDA_SCALING.windowSeconds,
      source: SOURCES.lambdaScaling,
    },
    {
      service: 'Lambda',
      name: `scaling: added requests/s per ${LAMBDA_SCALING.windowSeconds} s, the busiest function, over the ramp`,
      unit: 'requests/s',
      allows: LAMBDA_SCALING.requestsPerSecond,
      loadAt: (rate) =>
        (Math.max(...Object.values(loads(rate).invocations)) / mix.rampSeconds) *
        LAMBDA_SCALING.windowSeconds,
      source: SOURCES.lambdaScaling,
    },
    {
      service: 'DynamoDB',
      name: 'per partition: reads/3,000 + writes/1,000, the hottest key',
      unit: 'of one budget',
      allows: 1,
      loadAt: (rate) => loadAt(sample, rate)[0]?.share ?? 0,
      source: SOURCES.dynamoDbCombined,
    },
    {
      service: 'DynamoDB',
      name: 'id counters in the worst second: every createPet instance Lambda may add at once leases',
      unit: 'of one budget',
      allows: 1,
      loadAt: (rate) => {
        // Each new instance first reads the first counter (eventually consistent, half a unit), then
        // leases from a spread counter, as do the steady leases of the running ones.
        const steady = loads(rate).invocations.createPet / ID_BLOCK_SIZE;
        const firstCounter = partitionShare({ readUnits: LAMBDA_SCALING.environments / 2, writeUnits: 0 });
        const spreadCounter = partitionShare({
          readUnits: 0,
          writeUnits: (LAMBDA_SCALING.environments + steady) / PET_ID_COUNTERS,
        });
        return Math.max(firstCounter, spreadCounter);
      },
      source: SOURCES.lambdaScaling,
    },
    {
      service: 'DynamoDB',
      name: 'one item: the popular pet, past getPet’s cache',
      unit: 'read units/s',
      allows: ITEM_READ_UNITS,
      loadAt: (rate) => popularPetReads(sample, rate),
      source: SOURCES.dynamoDbPartitions,
    },
  ];
  for (const [index, label, own] of [
    ['table', 'table', warm?.table],
    [STATUS_INDEX.name, 'status index', warm?.indexes[STATUS_INDEX.name]],
  ] as const)
    for (const kind of ['read', 'write'] as const) {
      const units = (rate: number) => tables(rate)(index)[kind === 'read' ? 'readUnits' : 'writeUnits'];
      const quota = kind === 'read' ? QUOTA_PLAN.dynamoDbTableReads : QUOTA_PLAN.dynamoDbTableWrites;
      const warmUnits = (own ?? NEW_ON_DEMAND_TABLE)[
        kind === 'read' ? 'readUnitsPerSecond' : 'writeUnitsPerSecond'
      ];
      const unit = `${kind} units/s`;
      limits.push(
        {
          service: 'DynamoDB',
          name: `${label}: table-level ${kind} quota`,
          unit,
          allows: quota.planned,
          loadAt: units,
          source: SOURCES.dynamoDbQuotas,
          quota,
        },
        {
          service: 'DynamoDB',
          name: `${label}: warm throughput, ${kind}s${own ? '' : ' (a new on-demand table’s)'}`,
          unit,
          allows: warmUnits,
          loadAt: units,
          source: SOURCES.dynamoDbWarm,
        },
      );
    }
  return limits;
}
