// The baseline for the authorizer with the AWS SDK: create the client, send the one GetItem that
// looks the key's hash up, allow the method or throw "Unauthorized". No revocation check, no
// metrics.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { allow, apiKeyRead } from '#bench/baselines/requests.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const { Item } = await client.send(new GetItemCommand(apiKeyRead(event)));
  if (!Item) throw new Error('Unauthorized');
  return allow(event, String(Item.id?.S));
}
