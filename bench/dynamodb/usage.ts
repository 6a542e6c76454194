// DynamoDB requests and capacity per operation, counted by the proxy in front of the embedded
// DynamoDB while the handlers (the same source the bundles are built from) run in this process.
import { randomUUID } from 'node:crypto';
import {
  createPetRequest,
  getPetRequest,
  invoke,
  listPetsRequest,
} from '../../local/api-gateway/proxy-requests.ts';
import { lambdaContext } from '../../local/lambda/context.ts';
import type { ProxyRequest } from '../../shared/http/proxy-event.ts';
import { requestsIn } from '#bench/dynamodb/counting-proxy.ts';
import type { Counts } from '#bench/dynamodb/counting-proxy.ts';
import { LIST_QUERY, NEW_PET, tokenEvent } from '#bench/processes/events.ts';
import type { Fixture } from '#bench/dynamodb/fixture.ts';

/** The next page's query string, from a listPets answer's Link header; none on the last page. */
export const nextPageQuery = (link: string | undefined) => /<[^?]*\?([^>]*)>/.exec(link ?? '')?.[1];

/** A walk through every pet, page by page, at the default page size. */
export const WALK_OPERATION = 'listPets, every page of a walk';
const WALK_PAGE_SIZE = 20;

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export type OperationUsage = {
  operation: string;
  calls: number;
  /** Per call, by DynamoDB operation. */
  requestsPerCall: Record<string, number>;
  readRequests: number;
  writeRequests: number;
  /** On-demand read and write request units per call (the proxy's ConsumedCapacity). */
  readUnits: number;
  writeUnits: number;
  /** The most DynamoDB requests any one call made. */
  maxRequests: number;
};

export function usageOf(usages: OperationUsage[], operation: string): OperationUsage {
  const usage = usages.find((candidate) => candidate.operation === operation);
  if (!usage) throw new Error(`no DynamoDB usage measured for ${operation}`);
  return usage;
}

type UsageCase = {
  operation: string;
  calls: number;
  /** Runs one call and returns its HTTP status (200 for an authorizer's Allow). */
  call(): Promise<number>;
  expectedStatus: number;
};

function perCall(operation: string, calls: number, counts: Counts, maxRequests: number): OperationUsage {
  const usage: OperationUsage = {
    operation,
    calls,
    maxRequests,
    requestsPerCall: {},
    readRequests: 0,
    writeRequests: 0,
    readUnits: 0,
    writeUnits: 0,
  };
  for (const [name, { requests, capacityUnits }] of Object.entries(counts)) {
    usage.requestsPerCall[name] = requests / calls;
    if (WRITES.has(name)) {
      usage.writeRequests += requests / calls;
      usage.writeUnits += capacityUnits / calls;
    } else {
      usage.readRequests += requests / calls;
      usage.readUnits += capacityUnits / calls;
    }
  }
  return usage;
}

function usageCases(fixture: Fixture): UsageCase[] {
  const { listPets, getPet, createPet, authorizer } = fixture.functions;
  const replayedKey = randomUUID();
  const firstWalkQuery = `limit=${WALK_PAGE_SIZE}`;
  let walkQuery = firstWalkQuery;
  let getPets = 0;
  const withKey = (key: string): ProxyRequest =>
    createPetRequest(NEW_PET, { headers: [['Idempotency-Key', key]] });
  const http = (handler: typeof listPets, request: () => ProxyRequest) => async () =>
    (await invoke(handler, request())).status;
  const authorize = async () =>
    (await authorizer(tokenEvent(fixture.apiKey), lambdaContext())).principalId ? 200 : 0;
  return [
    {
      operation: `listPets ?${LIST_QUERY}`,
      calls: 100,
      expectedStatus: 200,
      call: http(listPets, () => listPetsRequest(LIST_QUERY)),
    },
    {
      operation: 'listPets, no filter',
      calls: 100,
      expectedStatus: 200,
      call: http(listPets, () => listPetsRequest()),
    },
    // Every page once, each call the next: the pages where a walk crosses from shard to shard included.
    {
      operation: WALK_OPERATION,
      calls: Math.ceil(fixture.seededPets / WALK_PAGE_SIZE),
      expectedStatus: 200,
      call: async () => {
        const answer = await invoke(listPets, listPetsRequest(walkQuery));
        walkQuery = nextPageQuery(answer.headers.Link) ?? firstWalkQuery;
        return answer.status;
      },
    },
    {
      operation: 'getPet',
      calls: 100,
      expectedStatus: 200,
      // Each call another pet: one the function's cache of pets read has not seen yet.
      call: http(getPet, () => getPetRequest(String(fixture.petIds[getPets++ % fixture.petIds.length]))),
    },
    // Enough calls that the counter's block lease (one UpdateItem per block of ids) is amortized, as it
    // is in a long-lived Lambda instance.
    {
      operation: 'createPet',
      calls: 500,
      expectedStatus: 201,
      call: http(createPet, () => createPetRequest(NEW_PET)),
    },
    {
      operation: 'createPet, new Idempotency-Key',
      calls: 100,
      expectedStatus: 201,
      call: http(createPet, () => withKey(randomUUID())),
    },
    // The uncounted first call (below) creates the pet that the counted ones replay.
    {
      operation: 'createPet, replayed Idempotency-Key',
      calls: 100,
      expectedStatus: 201,
      call: http(createPet, () => withKey(replayedKey)),
    },
    { operation: 'authorizer', calls: 100, expectedStatus: 200, call: authorize },
  ];
}

export async function measureDynamoDbUsage(fixture: Fixture): Promise<OperationUsage[]> {
  const results: OperationUsage[] = [];
  for (const { operation, calls, call, expectedStatus } of usageCases(fixture)) {
    await call(); // uncounted: it warms the client up, and makes the pet the replays return
    fixture.proxy.reset();
    let maxRequests = 0;
    for (let i = 0; i < calls; i++) {
      const before = requestsIn(fixture.proxy.counts());
      const status = await call();
      if (status !== expectedStatus) throw new Error(`${operation}: answered ${status}`);
      maxRequests = Math.max(maxRequests, requestsIn(fixture.proxy.counts()) - before);
    }
    results.push(perCall(operation, calls, fixture.proxy.counts(), maxRequests));
  }
  return results;
}
