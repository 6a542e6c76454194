// The baseline for getPet with the AWS SDK: create the client, send the one GetItem the operation
// needs, answer with the raw item. Nothing validated, no middleware, no deprecation headers.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { getPetRead } from '#bench/baselines/requests.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Item } = await client.send(new GetItemCommand(getPetRead(event)));
  return Item ? { statusCode: 200, body: JSON.stringify(Item) } : { statusCode: 404, body: '' };
}
