// The floor for createPet: create the client, send the one conditional PutItem the operation
// needs, with an item of the same shape (table and index keys) so DynamoDB does the same work.
// The id is random in the upper half of the id space instead of leased from the counter, and the
// body is trusted as it comes.
import { randomInt } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { IF_ABSENT, petItemKey, petStatusIndexKey } from '#shared/store/table.ts';
import { stringAttributes } from './string-attributes.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { name, categoryId, status = 'available' } = JSON.parse(event.body ?? '{}');
  const id = 2 ** 52 + randomInt(2 ** 47);
  await client.send(
    new PutItemCommand({
      TableName: process.env.PETSTORE_TABLE_NAME,
      Item: {
        ...stringAttributes({ ...petItemKey(id), ...petStatusIndexKey(id, status) }),
        type: { S: 'pet' },
        id: { N: String(id) },
        name: { S: name },
        categoryId: { N: String(categoryId) },
        status: { S: status },
      },
      ConditionExpression: IF_ABSENT,
    }),
  );
  return { statusCode: 201, body: JSON.stringify({ id, name, categoryId, status }) };
}
