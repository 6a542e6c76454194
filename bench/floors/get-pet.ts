// getPet below the SDK: the baseline's GetItem, signed and sent by hand.
import type { GetItemOutput } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { getPetRead } from '#bench/baselines/requests.ts';
import { dynamoDbRequest } from '#bench/floors/dynamodb-request.ts';

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Item } = await dynamoDbRequest<GetItemOutput>('GetItem', getPetRead(event));
  return Item ? { statusCode: 200, body: JSON.stringify(Item) } : { statusCode: 404, body: '' };
}
