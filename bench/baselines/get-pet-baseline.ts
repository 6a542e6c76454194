// The floor for getPet: create the client, send the one GetItem the operation needs (strongly
// consistent, as the store reads), answer with the raw item. Nothing validated, no middleware,
// no deprecation headers.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { petItemKey } from '#shared/store/table.ts';
import { stringAttributes } from './string-attributes.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: process.env.PETSTORE_TABLE_NAME,
      Key: stringAttributes(petItemKey(Number(event.pathParameters?.petId))),
      ConsistentRead: true,
    }),
  );
  return Item ? { statusCode: 200, body: JSON.stringify(Item) } : { statusCode: 404, body: '' };
}
