// What the mix costs at a request rate, service by service along the path, at us-east-1 list prices:
// API Gateway by volume tier, its cache by the hour, WAF and X-Ray per request, Lambda from the bench's
// durations, DynamoDB by units, logs at the levels the stack sets, and data transfer out. Each price
// names its page, to be checked there before a budget rests on it.
import { readFile } from 'node:fs/promises';
import type { CacheClusterSize } from '../../lib/stage-settings.ts';
import { AWS_PRICES } from '#bench/cost-basis.ts';
import type { CostLine, CostModel } from '#bench/cost.ts';
import type { FunctionDurations } from '#bench/capacity/limits.ts';

const HOURS_PER_MONTH = 730;
const GB = 2 ** 30;

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

type CostItem = { service: string; perHour: number; source: string };

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
  const apiGatewayTiers = AWS_PRICES.apiGateway.tiers.map(({ upTo, perMillion }) => ({
    upTo,
    price: perMillion / 1e6,
  }));
  const transferTiers = AWS_PRICES.transfer.tiers.map(({ upTo, perGb }) => ({ upTo, price: perGb }));
  const traces =
    volumes.requests * COST_ASSUMPTIONS.xRaySampledShare + COST_ASSUMPTIONS.xRayReservoirPerSecond;
  const logBytes =
    volumes.requests * COST_ASSUMPTIONS.accessLogBytesPerRequest +
    invocationCount * COST_ASSUMPTIONS.lambdaLogBytesPerInvocation;
  const items: CostItem[] = [
    {
      service: 'API Gateway requests (volume tiers)',
      perHour: hourly(tiered(monthly(volumes.requests), apiGatewayTiers)),
      source: AWS_PRICES.apiGateway.source,
    },
    {
      service: `API Gateway cache cluster (${cacheClusterSize ?? 'none'} GB)`,
      perHour: cacheClusterSize ? AWS_PRICES.cacheCluster.perHour[cacheClusterSize] : 0,
      source: AWS_PRICES.cacheCluster.source,
    },
    {
      service: 'AWS WAF (requests, web ACL, rules)',
      perHour:
        volumes.requests * 3600 * (AWS_PRICES.waf.perMillionRequests / 1e6) +
        hourly(AWS_PRICES.waf.perWebAclMonth + COST_ASSUMPTIONS.wafRules * AWS_PRICES.waf.perRuleMonth),
      source: AWS_PRICES.waf.source,
    },
    {
      service: `Lambda (requests and GB-seconds, arm64, ${memoryMb} MB)`,
      perHour:
        invocationCount * 3600 * (AWS_PRICES.lambda.perMillionRequests / 1e6) +
        gbSeconds * 3600 * AWS_PRICES.lambda.arm64PerGbSecond,
      source: AWS_PRICES.lambda.source,
    },
    {
      service: 'DynamoDB on-demand (read and write units)',
      perHour:
        volumes.readUnits * 3600 * (AWS_PRICES.dynamoDb.perMillionReadUnits / 1e6) +
        volumes.writeUnits * 3600 * (AWS_PRICES.dynamoDb.perMillionWriteUnits / 1e6),
      source: AWS_PRICES.dynamoDb.source,
    },
    {
      service: `X-Ray traces (${COST_ASSUMPTIONS.xRaySampledShare * 100}% sampled)`,
      perHour: traces * 3600 * (AWS_PRICES.xRay.perMillionTraces / 1e6),
      source: AWS_PRICES.xRay.source,
    },
    {
      service: 'CloudWatch Logs ingestion (access logs, Lambda platform lines)',
      perHour: ((logBytes * 3600) / GB) * AWS_PRICES.logs.perGbIngested,
      source: AWS_PRICES.logs.source,
    },
    {
      service: 'Data transfer out (volume tiers)',
      perHour: hourly(tiered(monthly(volumes.responseBytes) / GB, transferTiers)),
      source: AWS_PRICES.transfer.source,
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
