// Cost per million requests of each operation, from what this run measured (CPU time per invocation,
// DynamoDB requests and capacity units per call) and the list prices and assumptions below. Lambda gives
// a function CPU in proportion to its memory, so below one full vCPU the measured CPU time stretches
// (cpuStretch), while the wait for DynamoDB does not.
import { STAGE_SETTINGS } from '../lib/stage-settings.ts';
import { AWS_PRICES, KEY_TRAFFIC } from '#bench/cost-basis.ts';
import type { ColdStart } from '#bench/processes/cold-start.ts';
import { usageOf } from '#bench/dynamodb/usage.ts';
import type { OperationUsage } from '#bench/dynamodb/usage.ts';
import type { SubjectName, PerSubject } from '#bench/subjects.ts';
import type { Warm } from '#bench/processes/warm.ts';

/** The prices this model applies (bench/cost-basis.ts), as the results file records them. */
export const PRICES = {
  region: AWS_PRICES.region,
  apiGatewayRestPerMillionRequests: AWS_PRICES.apiGateway.tiers[0].perMillion,
  lambdaPerMillionRequests: AWS_PRICES.lambda.perMillionRequests,
  lambdaArm64PerGbSecond: AWS_PRICES.lambda.arm64PerGbSecond,
  dynamoDbPerMillionReadUnits: AWS_PRICES.dynamoDb.perMillionReadUnits,
  dynamoDbPerMillionWriteUnits: AWS_PRICES.dynamoDb.perMillionWriteUnits,
};

export const ASSUMPTIONS = {
  keyRequestIntervalSeconds: KEY_TRAFFIC.requestIntervalSeconds,
  authorizerCacheHitRate: KEY_TRAFFIC.authorizerCacheHitRate,
  /** What one DynamoDB request costs a Lambda function in the same region, in wall time. */
  dynamoDbRoundTripMs: 4,
  /** The memory size at which a function has one whole vCPU. */
  fullVcpuMemoryMb: 1769,
  /** Staging's; production's is the next size up (lib/stage-settings.ts). */
  chosenMemoryMb: STAGE_SETTINGS.staging.functionMemoryMb,
  memorySizesMb: [128, 256, 512, 1024, 1769],
};

/** What one call of an operation costs, in dollars per million calls. */
export type CostLine = {
  operation: string;
  /** The modelled wall time of one invocation of its function (what Lambda bills, rounded up). */
  durationMs: number;
  apiGateway: number;
  lambda: number;
  authorizer: number;
  dynamoDb: number;
  total: number;
};

type MemoryCost = {
  memoryMb: number;
  lines: CostLine[];
  /** The modelled Init of the slowest function's cold start (CPU-bound, so it stretches). */
  coldStartInitMs: number;
};

export type CostModel = {
  memoryMb: number;
  lines: CostLine[];
  byMemory: MemoryCost[];
  /** One cold start's Init (billed since August 2025) at any size up to one full vCPU, per million. */
  coldStartPerMillion: Record<SubjectName, number>;
};

const OPERATIONS: { operation: string; subject: SubjectName; usage: string }[] = [
  { operation: 'listPets ?status=', subject: 'listPets', usage: 'listPets ?status=available' },
  { operation: 'getPet', subject: 'getPet', usage: 'getPet' },
  { operation: 'createPet', subject: 'createPet', usage: 'createPet' },
  // Its CPU time is createPet's: the warm loop runs without the header.
  { operation: 'createPet + Idempotency-Key', subject: 'createPet', usage: 'createPet, new Idempotency-Key' },
];

const cpuStretch = (memoryMb: number) => Math.max(1, ASSUMPTIONS.fullVcpuMemoryMb / memoryMb);

const requestsOf = (usage: OperationUsage) => usage.readRequests + usage.writeRequests;

/** Lambda bills whole milliseconds of wall time: CPU time stretched, DynamoDB waits as they are. */
const billedMs = (cpuMs: number, usage: OperationUsage, memoryMb: number) =>
  Math.ceil(cpuMs * cpuStretch(memoryMb) + requestsOf(usage) * ASSUMPTIONS.dynamoDbRoundTripMs);

const lambdaPerMillion = (durationMs: number, memoryMb: number) =>
  PRICES.lambdaPerMillionRequests +
  (durationMs / 1000) * (memoryMb / 1024) * PRICES.lambdaArm64PerGbSecond * 1e6;

const dynamoDbPerMillion = (usage: OperationUsage) =>
  usage.readUnits * PRICES.dynamoDbPerMillionReadUnits +
  usage.writeUnits * PRICES.dynamoDbPerMillionWriteUnits;

export function costModel(
  warm: PerSubject<Warm>,
  coldStarts: PerSubject<ColdStart>,
  usages: OperationUsage[],
): CostModel {
  const authorizerUsage = usageOf(usages, 'authorizer');
  const authorizerCpuMs = warm.authorizer.function.cpuMsPerInvocation;
  const lineAt =
    (memoryMb: number) =>
    (entry: (typeof OPERATIONS)[number]): CostLine => {
      const usage = usageOf(usages, entry.usage);
      const durationMs = billedMs(warm[entry.subject].function.cpuMsPerInvocation, usage, memoryMb);
      const authorizerMiss =
        lambdaPerMillion(billedMs(authorizerCpuMs, authorizerUsage, memoryMb), memoryMb) +
        dynamoDbPerMillion(authorizerUsage);
      const line = {
        apiGateway: PRICES.apiGatewayRestPerMillionRequests,
        lambda: lambdaPerMillion(durationMs, memoryMb),
        authorizer: (1 - ASSUMPTIONS.authorizerCacheHitRate) * authorizerMiss,
        dynamoDb: dynamoDbPerMillion(usage),
      };
      const total = line.apiGateway + line.lambda + line.authorizer + line.dynamoDb;
      return { operation: entry.operation, durationMs, ...line, total };
    };
  const coldCpuMs = Object.values(coldStarts).map((sides) => sides.function.medianCpuMs);
  // Below one vCPU, Init's CPU-bound time stretches as much as memory shrinks: same GB-seconds.
  const initGbSecondsPerCpuMs = (ASSUMPTIONS.fullVcpuMemoryMb / 1024) * 1e-3;
  return {
    memoryMb: ASSUMPTIONS.chosenMemoryMb,
    lines: OPERATIONS.map(lineAt(ASSUMPTIONS.chosenMemoryMb)),
    byMemory: ASSUMPTIONS.memorySizesMb.map((memoryMb) => ({
      memoryMb,
      lines: OPERATIONS.map(lineAt(memoryMb)),
      coldStartInitMs: Math.max(...coldCpuMs) * cpuStretch(memoryMb),
    })),
    coldStartPerMillion: Object.fromEntries(
      Object.entries(coldStarts).map(([name, { function: cold }]) => [
        name,
        cold.medianCpuMs * initGbSecondsPerCpuMs * PRICES.lambdaArm64PerGbSecond * 1e6,
      ]),
    ) as Record<SubjectName, number>,
  };
}
