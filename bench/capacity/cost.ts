// What the mix costs at a request rate, service by service along the path, at us-east-1 list prices:
// API Gateway by volume tier, its cache by the hour, WAF and X-Ray per request, Lambda from the bench's
// durations, DynamoDB by units, logs at the levels the stack sets, and data transfer out. Each price
// names its page, to be checked there before a budget rests on it.
import { readFile } from 'node:fs/promises';
import type { CacheClusterSize } from '#lib/stage-settings.ts';
import type { CostLine, CostModel } from '#bench/cost.ts';
import type { FunctionDurations } from '#bench/capacity/limits.ts';

const HOURS_PER_MONTH = 730;
const GB = 2 ** 30;

/** Dollars per million requests in each monthly volume tier, up to `upTo` requests a month. */
const API_GATEWAY_REST_TIERS = [
  { upTo: 333e6, perMillion: 3.5 },
  { upTo: 1e9, perMillion: 2.8 },
  { upTo: 20e9, perMillion: 2.38 },
  { upTo: Infinity, perMillion: 1.51 },
];
const CACHE_CLUSTER_PER_HOUR: Record<CacheClusterSize, number> = {
  '0.5': 0.02,
  '1.6': 0.038,
  '6.1': 0.2,
  '13.5': 0.25,
  '28.4': 0.5,
  '58.2': 1,
  '118': 1.9,
  '237': 3.8,
};
/** Data transfer out to the internet, dollars per GB by monthly volume. */
const TRANSFER_OUT_TIERS = [
  { upTo: 100, perGb: 0 },
  { upTo: 10 * 1024, perGb: 0.09 },
  { upTo: 50 * 1024, perGb: 0.085 },
  { upTo: 150 * 1024, perGb: 0.07 },
  { upTo: Infinity, perGb: 0.05 },
];

export const PRICES = {
  apiGateway: { source: 'https://aws.amazon.com/api-gateway/pricing/', tiers: API_GATEWAY_REST_TIERS },
  cacheCluster: { source: 'https://aws.amazon.com/api-gateway/pricing/', perHour: CACHE_CLUSTER_PER_HOUR },
  waf: {
    source: 'https://aws.amazon.com/waf/pricing/',
    perMillionRequests: 0.6,
    perWebAclMonth: 5,
    perRuleMonth: 1,
  },
  lambda: {
    source: 'https://aws.amazon.com/lambda/pricing/',
    perMillionRequests: 0.2,
    arm64PerGbSecond: 0.0000133334,
  },
  dynamoDb: {
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    perMillionReadUnits: 0.125,
    perMillionWriteUnits: 0.625,
  },
  xRay: { source: 'https://aws.amazon.com/xray/pricing/', perMillionTraces: 5 },
  logs: { source: 'https://aws.amazon.com/cloudwatch/pricing/', perGbIngested: 0.5 },
  transfer: { source: 'https://aws.amazon.com/ec2/pricing/on-demand/', tiers: TRANSFER_OUT_TIERS },
} as const;

/** What the stack records per request, and how much, where no run measures it. */
export const COST_ASSUMPTIONS = {
  /** X-Ray's default sampling rule, which the stage uses: the first request each second, then 5%. */
  xRaySampledShare: 0.05,
  xRayReservoirPerSecond: 1,
  /** One access log line (lib/api/access-log-format.ts), typical values, CloudWatch's 26-byte overhead. */
  accessLogBytesPerRequest: 700,
  /**
   * Lambda's platform lines (start and report) for each invocation, in the JSON log format: the
   * functions log nothing of their own below WARN, and Lambda's system log level is left at INFO.
   */
  lambdaLogBytesPerInvocation: 600,
  /** The web ACL's rules: the per-IP limit, two managed groups, one repeated-parameter rule per cache key. */
  wafRules: 6,
};

/** The monthly bill of a tiered price for `volume` units a month. */
function tiered(volume: number, tiers: readonly { upTo: number; price: number }[]): number {
  let [cost, below] = [0, 0];
  for (const { upTo, price } of tiers) {
    cost += Math.max(0, Math.min(volume, upTo) - below) * price;
    below = upTo;
  }
  return cost;
}

/** What the path carries each second at the rate priced. */
export type PathVolumes = {
  requests: number;
  /** Invocations of each function after the caches, createPet's apart by Idempotency-Key. */
  invocations: Record<keyof FunctionDurations, number>;
  readUnits: number;
  writeUnits: number;
  /** Bytes of responses sent to clients. */
  responseBytes: number;
};

export type CostItem = { service: string; perHour: number; source: string };

export type CostAtRate = {
  memoryMb: number;
  items: CostItem[];
  perHour: number;
  perMonth: number;
};

export function costAtRate(
  volumes: PathVolumes,
  {
    memoryMb,
    durationsMs,
    cacheClusterSize,
  }: { memoryMb: number; durationsMs: FunctionDurations; cacheClusterSize?: CacheClusterSize | undefined },
): CostAtRate {
  const monthly = (perSecond: number) => perSecond * 3600 * HOURS_PER_MONTH;
  const hourly = (perMonth: number) => perMonth / HOURS_PER_MONTH;
  const { invocations } = volumes;
  const invocationCount = Object.values(invocations).reduce((sum, count) => sum + count, 0);
  const gbSeconds = Object.entries(invocations).reduce(
    (sum, [name, count]) =>
      sum + count * (durationsMs[name as keyof FunctionDurations] / 1000) * (memoryMb / 1024),
    0,
  );
  const apiGatewayTiers = API_GATEWAY_REST_TIERS.map(({ upTo, perMillion }) => ({
    upTo,
    price: perMillion / 1e6,
  }));
  const transferTiers = TRANSFER_OUT_TIERS.map(({ upTo, perGb }) => ({ upTo, price: perGb }));
  const traces =
    volumes.requests * COST_ASSUMPTIONS.xRaySampledShare + COST_ASSUMPTIONS.xRayReservoirPerSecond;
  const logBytes =
    volumes.requests * COST_ASSUMPTIONS.accessLogBytesPerRequest +
    invocationCount * COST_ASSUMPTIONS.lambdaLogBytesPerInvocation;
  const items: CostItem[] = [
    {
      service: 'API Gateway requests (volume tiers)',
      perHour: hourly(tiered(monthly(volumes.requests), apiGatewayTiers)),
      source: PRICES.apiGateway.source,
    },
    {
      service: `API Gateway cache cluster (${cacheClusterSize ?? 'none'} GB)`,
      perHour: cacheClusterSize ? CACHE_CLUSTER_PER_HOUR[cacheClusterSize] : 0,
      source: PRICES.cacheCluster.source,
    },
    {
      service: 'AWS WAF (requests, web ACL, rules)',
      perHour:
        volumes.requests * 3600 * (PRICES.waf.perMillionRequests / 1e6) +
        hourly(PRICES.waf.perWebAclMonth + COST_ASSUMPTIONS.wafRules * PRICES.waf.perRuleMonth),
      source: PRICES.waf.source,
    },
    {
      service: `Lambda (requests and GB-seconds, arm64, ${memoryMb} MB)`,
      perHour:
        invocationCount * 3600 * (PRICES.lambda.perMillionRequests / 1e6) +
        gbSeconds * 3600 * PRICES.lambda.arm64PerGbSecond,
      source: PRICES.lambda.source,
    },
    {
      service: 'DynamoDB on-demand (read and write units)',
      perHour:
        volumes.readUnits * 3600 * (PRICES.dynamoDb.perMillionReadUnits / 1e6) +
        volumes.writeUnits * 3600 * (PRICES.dynamoDb.perMillionWriteUnits / 1e6),
      source: PRICES.dynamoDb.source,
    },
    {
      service: `X-Ray traces (${COST_ASSUMPTIONS.xRaySampledShare * 100}% sampled)`,
      perHour: traces * 3600 * (PRICES.xRay.perMillionTraces / 1e6),
      source: PRICES.xRay.source,
    },
    {
      service: 'CloudWatch Logs ingestion (access logs, Lambda platform lines)',
      perHour: ((logBytes * 3600) / GB) * PRICES.logs.perGbIngested,
      source: PRICES.logs.source,
    },
    {
      service: 'Data transfer out (volume tiers)',
      perHour: hourly(tiered(monthly(volumes.responseBytes) / GB, transferTiers)),
      source: PRICES.transfer.source,
    },
  ];
  const perHour = items.reduce((sum, item) => sum + item.perHour, 0);
  return { memoryMb, items, perHour, perMonth: perHour * HOURS_PER_MONTH };
}

/** Each function's billed wall time at `memoryMb`, from the bench's cost model (bench/results.json). */
export async function benchDurations(memoryMb: number): Promise<FunctionDurations> {
  const bench = JSON.parse(await readFile(new URL('../results.json', import.meta.url), 'utf8')) as {
    cost: CostModel;
  };
  const lines = bench.cost.byMemory.find((byMemory) => byMemory.memoryMb === memoryMb)?.lines;
  const duration = (operation: string) => {
    const found = lines?.find((candidate: CostLine) => candidate.operation === operation);
    if (!found) throw new Error(`bench/results.json has no duration of ${operation} at ${memoryMb} MB`);
    return found.durationMs;
  };
  return {
    listPets: duration('listPets ?status='),
    getPet: duration('getPet'),
    createPet: duration('createPet'),
    createPetIdempotent: duration('createPet + Idempotency-Key'),
    // One GetItem, as getPet's, and no more code: the bench prices its calls, not its duration.
    authorizer: duration('getPet'),
  };
}
