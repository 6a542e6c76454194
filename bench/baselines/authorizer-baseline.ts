// The floor for the authorizer: create the client, send the one GetItem that looks the key's hash
// up, allow the method or throw "Unauthorized". No revocation check, no metrics.
import { createHash } from 'node:crypto';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { apiKeyItemKey } from '#shared/store/table.ts';
import { stringAttributes } from './string-attributes.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const token = event.authorizationToken.split(' ').at(-1) ?? '';
  const key = apiKeyItemKey(createHash('sha256').update(token).digest('hex'));
  const { Item } = await client.send(
    new GetItemCommand({ TableName: process.env.PETSTORE_TABLE_NAME, Key: stringAttributes(key) }),
  );
  if (!Item) throw new Error('Unauthorized');
  return {
    principalId: String(Item.id?.S),
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
    },
  };
}
