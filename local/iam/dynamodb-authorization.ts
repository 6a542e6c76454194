// What IAM sees of one DynamoDB request (JSON protocol): for each check AWS makes, the action, the
// table or index ARN and the dynamodb:LeadingKeys condition key, the partition keys of the items
// touched. The local emulation decides each against the function role's policy and answers a refusal
// as DynamoDB does, so a policy too narrow for the code fails on a laptop rather than once deployed.
import { randomUUID } from 'node:crypto';

export type TableKeySchemas = Record<
  string /* table name */,
  { partitionKey: string; indexes: Record<string /* index name */, { partitionKey: string }> }
>;

export type DynamoDbAuthorization = { action: string; resource: string; context: Record<string, string[]> };

type Options = { region: string; accountId: string; tables: TableKeySchemas };

type AttributeValue = { S?: string; N?: string };
type Item = Record<string, AttributeValue>;
/** One table's part of a transaction. */
type TransactPart = { TableName: string; Key?: Item; Item?: Item };
/** The parts of the requests read here; the SDK built them, so their shape is trusted. */
type Request = {
  TableName?: string;
  IndexName?: string;
  Key?: Item;
  Item?: Item;
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  KeyConditions?: Record<string, { AttributeValueList?: AttributeValue[] }>;
  RequestItems?: Record<
    string,
    { Keys: Item[] } | { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]
  >;
  TransactItems?: Record<string, TransactPart>[];
};

/** IAM authorizes each part of a transaction as the single-item action it performs. */
const TRANSACT_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/**
 * The partition-key values the items or key conditions hold, as IAM compares them: strings, numbers
 * in their decimal form.
 */
const valuesOf = (attributes: (AttributeValue | undefined)[]) =>
  attributes.flatMap((attribute) => attribute?.S ?? attribute?.N ?? []);

function authorization(
  operation: string,
  table: string,
  options: Options,
  /** The partition-key values touched, given the partition key; undefined when the call has none (Scan). */
  touched?: (partitionKey: string) => (AttributeValue | undefined)[],
  index?: string,
): DynamoDbAuthorization {
  const tableArn = `arn:aws:dynamodb:${options.region}:${options.accountId}:table/${table}`;
  const schema = options.tables[table];
  const partitionKey = index === undefined ? schema?.partitionKey : schema?.indexes[index]?.partitionKey;
  // The key schema of a table or index not described is unknown: no LeadingKeys, as for a Scan.
  const context: Record<string, string[]> =
    touched && partitionKey ? { 'dynamodb:LeadingKeys': valuesOf(touched(partitionKey)) } : {};
  return {
    action: `dynamodb:${operation}`,
    resource: index === undefined ? tableArn : `${tableArn}/index/${index}`,
    context,
  };
}

/** `<name> = <:value>`: in a key condition, only the partition key's is an equality. */
const EQUALITY = /(#?\w+)\s*=\s*(:\w+)/g;

/** The value bound to the partition key in a Query's `<name> = <:value> [AND <sort key condition>]`. */
function queriedPartition(request: Request, partitionKey: string): (AttributeValue | undefined)[] {
  const names = request.ExpressionAttributeNames ?? {};
  for (const [, name = '', value = ''] of (request.KeyConditionExpression ?? '').matchAll(EQUALITY)) {
    if ((names[name] ?? name) === partitionKey) return [request.ExpressionAttributeValues?.[value]];
  }
  // The legacy form of the same condition.
  return [request.KeyConditions?.[partitionKey]?.AttributeValueList?.[0]];
}

export function authorizationsOf(
  operation: string,
  body: Record<string, unknown>,
  options: Options,
): DynamoDbAuthorization[] {
  const request = body as Request;
  const table = request.TableName ?? '';
  switch (operation) {
    case 'GetItem':
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [authorization(operation, table, options, (key) => [(request.Item ?? request.Key)?.[key]])];
    case 'Query':
      return [
        authorization(operation, table, options, (key) => queriedPartition(request, key), request.IndexName),
      ];
    case 'Scan':
      return [authorization(operation, table, options, undefined, request.IndexName)];
    // One check a table, with the partition keys of all its items.
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.entries(request.RequestItems ?? {}).map(([name, requests]) =>
        authorization(operation, name, options, (key) =>
          Array.isArray(requests)
            ? requests.map((write) => (write.PutRequest?.Item ?? write.DeleteRequest?.Key)?.[key])
            : requests.Keys.map((read) => read[key]),
        ),
      );
    // One check an item.
    case 'TransactGetItems':
    case 'TransactWriteItems':
      return (request.TransactItems ?? []).flatMap((item) =>
        Object.entries(item).map(([kind, part]) =>
          authorization(TRANSACT_ACTIONS[kind] ?? kind, part.TableName, options, (key) => [
            (part.Item ?? part.Key)?.[key],
          ]),
        ),
      );
    // Not about a table's items (DescribeTable, ListTables, ...): the table named, or all of them.
    default:
      return [authorization(operation, request.TableName ?? '*', options)];
  }
}

/** IAM's refusal as DynamoDB answers it, in AWS's wording for each reason. */
export function accessDeniedAnswer(
  principalArn: string,
  denied: DynamoDbAuthorization,
  reason: string,
): { status: 400; headers: Record<string, string>; body: Buffer } {
  const because =
    reason === 'explicit deny'
      ? 'with an explicit deny in an identity-based policy'
      : `because ${reason} the ${denied.action} action`;
  const message = `User: ${principalArn} is not authorized to perform: ${denied.action} on resource: ${denied.resource} ${because}`;
  return {
    status: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': randomUUID() },
    body: Buffer.from(
      JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message }),
    ),
  };
}
