// A pass-through HTTP proxy in front of the embedded DynamoDB that counts requests per operation
// (X-Amz-Target) and their capacity. It adds ReturnConsumedCapacity=TOTAL to every request and
// reads ConsumedCapacity from the answer, so the handlers need no change to be measured.
// dynalite counts the table's capacity only; DynamoDB also charges a write to every GSI the item
// is in, so a PutItem of an item with the status index key is charged again for the index (its
// projection is ALL: the index entry is the whole item, the same units). No other write path
// of the service touches the index (pets are never updated or deleted). A conditional write whose
// condition fails is charged too (one unit for the service's items, all under 1 KB), which
// dynalite does not report either.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STATUS_INDEX } from '#shared/store/table.ts';

export type OperationCount = { requests: number; capacityUnits: number };
export type Counts = Record<string, OperationCount>;

export type CountingProxy = {
  endpoint: string;
  /** Counts since the last reset, by DynamoDB operation (GetItem, Query, PutItem, ...). */
  counts(): Counts;
  reset(): void;
  close(): Promise<void>;
};

const readAll = async (stream: IncomingMessage) => Buffer.concat(await stream.toArray());

type DynamoDbRequest = { ReturnConsumedCapacity?: string; Item?: Record<string, unknown> };
type DynamoDbAnswer = { ConsumedCapacity?: { CapacityUnits?: number }; __type?: string };

const indexWrites = (operation: string, body: DynamoDbRequest) =>
  operation === 'PutItem' && body.Item?.[STATUS_INDEX.partitionKey] !== undefined ? 1 : 0;

function capacityUnits(operation: string, body: DynamoDbRequest, answer: DynamoDbAnswer): number {
  if (answer.__type?.endsWith('#ConditionalCheckFailedException')) return 1;
  const tableUnits = answer.ConsumedCapacity?.CapacityUnits ?? 0;
  return tableUnits * (1 + indexWrites(operation, body));
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let counts: Counts = {};

  function record(operation: string, body: DynamoDbRequest, answer: DynamoDbAnswer) {
    const count = (counts[operation] ??= { requests: 0, capacityUnits: 0 });
    count.requests += 1;
    count.capacityUnits += capacityUnits(operation, body, answer);
  }

  const server = createServer(async (incoming, outgoing) => {
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
    const body = JSON.parse((await readAll(incoming)).toString('utf8') || '{}') as DynamoDbRequest;
    body.ReturnConsumedCapacity ??= 'TOTAL';
    const payload = Buffer.from(JSON.stringify(body));
    const forwarded = httpRequest({
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, 'content-length': payload.length },
    });
    forwarded.on('response', async (answer) => {
      const answerBody = await readAll(answer);
      record(operation, body, JSON.parse(answerBody.toString('utf8') || '{}') as DynamoDbAnswer);
      outgoing.writeHead(answer.statusCode ?? 500, answer.headers).end(answerBody);
    });
    forwarded.on('error', () => outgoing.destroy());
    forwarded.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts: () => structuredClone(counts),
    reset: () => (counts = {}),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
