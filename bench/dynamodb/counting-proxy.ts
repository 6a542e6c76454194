// A pass-through HTTP proxy in front of the embedded DynamoDB that counts requests per operation
// (X-Amz-Target) and their capacity. It adds ReturnConsumedCapacity=TOTAL to every request and reads
// ConsumedCapacity from the answer, so the handlers need no change to be measured.
import { startDynamoDbProxy } from '../../local/dynamodb/proxy.ts';
import type { ProxiedAnswer, ProxiedRequest } from '../../local/dynamodb/proxy.ts';
import { STATUS_INDEX } from '../../shared/store/table.ts';

type OperationCount = { requests: number; capacityUnits: number };
export type Counts = Record<string, OperationCount>;

/** All the requests counted, whatever their operation. */
export const requestsIn = (counts: Counts) =>
  Object.values(counts).reduce((sum, { requests }) => sum + requests, 0);

export type CountingProxy = {
  endpoint: string;
  /** Counts since the last reset, by DynamoDB operation (GetItem, Query, PutItem, ...). */
  counts(): Counts;
  reset(): void;
  close(): Promise<void>;
};

type DynamoDbRequest = { ReturnConsumedCapacity?: string; Item?: Record<string, unknown> };
type DynamoDbAnswer = { ConsumedCapacity?: { CapacityUnits?: number }; __type?: string };

const parse = <T extends DynamoDbRequest | DynamoDbAnswer>(body: Buffer) =>
  JSON.parse(body.toString('utf8') || '{}') as T;

/** Asks DynamoDB to report each request's capacity, unless the request already does. */
function withConsumedCapacity(request: ProxiedRequest): ProxiedRequest {
  const body = parse<DynamoDbRequest>(request.body);
  body.ReturnConsumedCapacity ??= 'TOTAL';
  return { ...request, body: Buffer.from(JSON.stringify(body)) };
}

// dynalite counts the table's capacity only; DynamoDB also charges a write to every GSI the item is in,
// so a PutItem of an item with the status index key is charged again for the index (its projection is
// ALL: the index entry is the whole item, the same units). No other write path of the service touches
// the index (pets are never updated or deleted). A conditional write whose condition fails is charged
// too (one unit for the service's items, all under 1 KB), which dynalite does not report either.
const indexWrites = (operation: string, body: DynamoDbRequest) =>
  operation === 'PutItem' && body.Item?.[STATUS_INDEX.partitionKey] !== undefined ? 1 : 0;

function capacityUnits(operation: string, body: DynamoDbRequest, answer: DynamoDbAnswer): number {
  if (answer.__type?.endsWith('#ConditionalCheckFailedException')) return 1;
  const tableUnits = answer.ConsumedCapacity?.CapacityUnits ?? 0;
  return tableUnits * (1 + indexWrites(operation, body));
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  let counts: Counts = {};

  function record({ operation, body }: ProxiedRequest, answer: ProxiedAnswer) {
    const count = (counts[operation] ??= { requests: 0, capacityUnits: 0 });
    count.requests += 1;
    count.capacityUnits += capacityUnits(operation, parse(body), parse(answer.body));
  }

  const proxy = await startDynamoDbProxy(target, { rewrite: withConsumedCapacity, observe: record });
  return {
    endpoint: proxy.endpoint,
    counts: () => structuredClone(counts),
    reset: () => (counts = {}),
    close: proxy.close,
  };
}
