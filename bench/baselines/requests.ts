// The one DynamoDB request of each baseline, in DynamoDB's own JSON: a baseline sends it as an SDK
// command, and its floor, the same code bundled without the SDK (bench/floors/), signs and posts it.
// Keys come from the table's own builders, so it reads and writes what the functions do. Types only
// from the SDK: this module adds nothing to a floor's bundle.
import { createHash, randomInt } from 'node:crypto';
import type { AttributeValue, GetItemInput, PutItemInput, QueryInput } from '@aws-sdk/client-dynamodb';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayTokenAuthorizerEvent,
} from 'aws-lambda';
import type { PetStatus } from '../../shared/schemas.ts';
import {
  IF_ABSENT,
  LIST_FILTERS,
  STATUS_INDEX,
  apiKeyItemKey,
  idSortKey,
  petIndexKeys,
  petItemKey,
} from '../../shared/store/table.ts';

const tableName = () => process.env.PETSTORE_TABLE_NAME;

/** The table's key builders give plain strings; DynamoDB's JSON types them. */
const stringAttributes = (values: Record<string, string>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { S: value }]));

/** listPets: the status index's first shard, the same key condition, limit + 1 items. */
export const listPetsQuery = (event: APIGatewayProxyEvent): QueryInput => ({
  TableName: tableName(),
  IndexName: STATUS_INDEX.name,
  KeyConditionExpression: `${STATUS_INDEX.partitionKey} = :partition AND ${STATUS_INDEX.sortKey} > :after`,
  ExpressionAttributeValues: {
    ':partition': { S: LIST_FILTERS.status.partition(event.queryStringParameters?.status as PetStatus, 0) },
    ':after': { S: idSortKey(0) },
  },
  // The default page of 20, plus the one item that tells whether a next page exists.
  Limit: 21,
});

/** getPet: strongly consistent, as the store reads. */
export const getPetRead = (event: APIGatewayProxyEvent): GetItemInput => ({
  TableName: tableName(),
  Key: stringAttributes(petItemKey(Number(event.pathParameters?.petId))),
  ConsistentRead: true,
});

/**
 * createPet: the conditional PutItem of an item of the same shape (table and index keys), so
 * DynamoDB does the same work. The id is random in the upper half of the id space instead of
 * leased from the counter, and the body is trusted as it comes.
 */
export function createPetWrite(event: APIGatewayProxyEvent): { input: PutItemInput; pet: object } {
  const { name, categoryId, status = 'available' } = JSON.parse(event.body ?? '{}');
  const id = 2 ** 52 + randomInt(2 ** 47);
  const input = {
    TableName: tableName(),
    Item: {
      ...stringAttributes({ ...petItemKey(id), ...petIndexKeys({ id, name, categoryId, status }) }),
      type: { S: 'pet' },
      id: { N: String(id) },
      name: { S: name },
      categoryId: { N: String(categoryId) },
      status: { S: status },
    },
    ConditionExpression: IF_ABSENT,
  };
  return { input, pet: { id, name, categoryId, status } };
}

/** The authorizer: the GetItem that looks the key's hash up. */
export const apiKeyRead = (event: APIGatewayTokenAuthorizerEvent): GetItemInput => {
  const token = event.authorizationToken.split(' ').at(-1) ?? '';
  return {
    TableName: tableName(),
    Key: stringAttributes(apiKeyItemKey(createHash('sha256').update(token).digest('hex'))),
  };
};

/** The authorizer's Allow, for the principal the key's item names. */
export const allow = (
  event: APIGatewayTokenAuthorizerEvent,
  principalId: string,
): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
  },
});
