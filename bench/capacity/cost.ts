// What the mix costs at a request rate, from the bench's cost model (bench/results.json: dollars per
// million calls of each operation at each memory size) and API Gateway's stage cache: a cached list
// page still pays API Gateway, not its function, authorizer call or DynamoDB reads; the cache cluster
// is billed by the hour.
import { readFile } from 'node:fs/promises';
import type { CostLine, CostModel } from '#bench/cost.ts';

/** The cache cluster's hourly price (0.5 GB, us-east-1 list price, as docs/performance.md has it). */
const CACHE_CLUSTER_PER_HOUR = 0.02;
const HOURS_PER_MONTH = 730;

export type CostAtRate = {
  memoryMb: number;
  /** Of list requests, the share the stage cache answers. */
  listCacheHits: number;
  perHour: number;
  perMonth: number;
};

export type MixShares = {
  listPets: number;
  getPet: number;
  createPet: number;
  /** Of creates, the share with an Idempotency-Key. */
  idempotencyKey: number;
};

export async function costAtRate(
  rate: number,
  shares: MixShares,
  { memoryMb, listCacheHits }: { memoryMb: number; listCacheHits: number },
): Promise<CostAtRate> {
  const bench = JSON.parse(await readFile(new URL('../results.json', import.meta.url), 'utf8')) as {
    cost: CostModel;
  };
  const lines = bench.cost.byMemory.find((byMemory) => byMemory.memoryMb === memoryMb)?.lines;
  const line = (operation: string): CostLine => {
    const found = lines?.find((candidate) => candidate.operation === operation);
    if (!found) throw new Error(`bench/results.json has no cost of ${operation} at ${memoryMb} MB`);
    return found;
  };
  const list = line('listPets ?status=');
  const listPerMillion =
    list.apiGateway + (1 - listCacheHits) * (list.lambda + list.authorizer + list.dynamoDb);
  const createPerMillion =
    (1 - shares.idempotencyKey) * line('createPet').total +
    shares.idempotencyKey * line('createPet + Idempotency-Key').total;
  const perMillion =
    shares.listPets * listPerMillion +
    shares.getPet * line('getPet').total +
    shares.createPet * createPerMillion;
  const perHour = (rate * 3600 * perMillion) / 1e6 + (listCacheHits > 0 ? CACHE_CLUSTER_PER_HOUR : 0);
  return { memoryMb, listCacheHits, perHour, perMonth: perHour * HOURS_PER_MONTH };
}
