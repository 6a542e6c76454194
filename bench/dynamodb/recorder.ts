// A DynamoDB proxy that records, for each request, the partition key it addresses and the sizes the
// capacity rules need: the items a read returned, and a write's item before and after (read aside,
// unrecorded, around the write). Its callers send one request at a time, so nothing comes between.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbProxy } from '../../local/dynamodb/proxy.ts';
import type { ProxiedAnswer, ProxiedRequest } from '../../local/dynamodb/proxy.ts';
import { STATUS_INDEX, TABLE_KEY } from '../../shared/store/table.ts';
import { itemBytes } from '#bench/dynamodb/capacity-units.ts';
import type { AttributeMap, TraceEntry } from '#bench/dynamodb/capacity-units.ts';

type DynamoDbRequest = {
  TableName: string;
  Key?: AttributeMap;
  Item?: AttributeMap;
  IndexName?: string;
  ConsistentRead?: boolean;
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
};
type DynamoDbAnswer = { Item?: AttributeMap; Items?: AttributeMap[]; __type?: string };

const WRITES = new Set(['PutItem', 'UpdateItem']);
const READS = new Set(['GetItem', 'Query']);
/** Data operations the service does not send: the model would have to learn their rules first. */
const UNMODELLED = new Set([
  'BatchGetItem',
  'BatchWriteItem',
  'DeleteItem',
  'Scan',
  'TransactGetItems',
  'TransactWriteItems',
]);

export type Recorder = {
  endpoint: string;
  /** The entries recorded since the last call. */
  take(): TraceEntry[];
  close(): Promise<void>;
};

const parse = <T>(body: Buffer) => JSON.parse(body.toString('utf8') || '{}') as T;
const keyOf = ({ [TABLE_KEY.partitionKey]: partition, [TABLE_KEY.sortKey]: sort }: AttributeMap) => {
  if (!partition || !sort) throw new Error('An item without its table key');
  return { [TABLE_KEY.partitionKey]: partition, [TABLE_KEY.sortKey]: sort };
};
const partitionOf = (item: AttributeMap | undefined, attribute: string) => item?.[attribute]?.S;
const tablePartition = (key: AttributeMap) => partitionOf(key, TABLE_KEY.partitionKey) ?? '';

/** The value a Query's key condition gives the partition key: `#name = :value`. */
function queriedPartition(request: DynamoDbRequest): string {
  const attribute = request.IndexName ? STATUS_INDEX.partitionKey : TABLE_KEY.partitionKey;
  const names = request.ExpressionAttributeNames ?? {};
  const placeholder = Object.keys(names).find((name) => names[name] === attribute) ?? attribute;
  const match = new RegExp(`${placeholder}\\s*=\\s*(:\\w+)`).exec(request.KeyConditionExpression ?? '');
  const value = match?.[1] && request.ExpressionAttributeValues?.[match[1]]?.S;
  if (!value) throw new Error(`No partition key in the key condition ${request.KeyConditionExpression}`);
  return value;
}

/** The index entries a successful write puts or removes: the status index holds items with its key. */
function indexWrites(before: AttributeMap | undefined, after: AttributeMap | undefined) {
  const attribute = STATUS_INDEX.partitionKey;
  const [was, is] = [partitionOf(before, attribute), partitionOf(after, attribute)];
  return [
    ...(is && after ? [{ index: STATUS_INDEX.name, partition: is, bytes: itemBytes(after) }] : []),
    ...(was && before && was !== is
      ? [{ index: STATUS_INDEX.name, partition: was, bytes: itemBytes(before) }]
      : []),
  ];
}

export async function startRecorder(target: string): Promise<Recorder> {
  const aside = new DynamoDBClient({
    endpoint: target,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const stored = async (tableName: string, key: AttributeMap) =>
    (await aside.send(new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  let entries: TraceEntry[] = [];
  let storedBefore: AttributeMap | undefined;

  async function beforeWrite({ operation, body }: ProxiedRequest): Promise<undefined> {
    if (!WRITES.has(operation)) return undefined;
    const request = parse<DynamoDbRequest>(body);
    storedBefore = await stored(request.TableName, request.Key ?? keyOf(request.Item ?? {}));
    return undefined;
  }

  async function record({ operation, body }: ProxiedRequest, answer: ProxiedAnswer) {
    const request = parse<DynamoDbRequest>(body);
    const reply = parse<DynamoDbAnswer>(answer.body);
    if (READS.has(operation) && answer.status === 200) {
      const items = reply.Items ?? (reply.Item ? [reply.Item] : []);
      entries.push({
        operation,
        partition: operation === 'Query' ? queriedPartition(request) : tablePartition(request.Key ?? {}),
        ...(request.IndexName && { index: request.IndexName }),
        consistent: request.ConsistentRead === true,
        itemBytes: items.map(itemBytes),
        indexWrites: [],
      });
    } else if (WRITES.has(operation)) {
      const failed = reply.__type?.endsWith('#ConditionalCheckFailedException') ?? false;
      if (answer.status !== 200 && !failed) return;
      const key = request.Key ?? keyOf(request.Item ?? {});
      const before = storedBefore;
      const after = failed ? (request.Item ?? before) : await stored(request.TableName, key);
      entries.push({
        operation,
        partition: tablePartition(key),
        consistent: true,
        itemBytes: [],
        write: { before: before ? itemBytes(before) : 0, after: after ? itemBytes(after) : 0, failed },
        indexWrites: failed ? [] : indexWrites(before, after),
      });
    } else if (UNMODELLED.has(operation)) {
      throw new Error(`The capacity model does not know ${operation}`);
    }
  }

  const proxy = await startDynamoDbProxy(target, { answer: beforeWrite, observe: record });
  return {
    endpoint: proxy.endpoint,
    take: () => {
      const taken = entries;
      entries = [];
      return taken;
    },
    close: async () => {
      aside.destroy();
      await proxy.close();
    },
  };
}
