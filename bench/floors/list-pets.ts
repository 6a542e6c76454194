// listPets below the SDK: the baseline's Query, signed and sent by hand.
import type { QueryOutput } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { listPetsQuery } from '#bench/baselines/requests.ts';
import { dynamoDbRequest } from '#bench/floors/dynamodb-request.ts';

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Items } = await dynamoDbRequest<QueryOutput>('Query', listPetsQuery(event));
  return { statusCode: 200, body: JSON.stringify(Items) };
}
