// The authorizer below the SDK: the baseline's GetItem, signed and sent by hand.
import type { GetItemOutput } from '@aws-sdk/client-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { allow, apiKeyRead } from '#bench/baselines/requests.ts';
import { dynamoDbRequest } from '#bench/floors/dynamodb-request.ts';

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const { Item } = await dynamoDbRequest<GetItemOutput>('GetItem', apiKeyRead(event));
  if (!Item) throw new Error('Unauthorized');
  return allow(event, String(Item.id?.S));
}
