// The baseline for listPets with the AWS SDK: create the client, send the one Query the operation
// needs, answer with the raw items. Nothing validated, no middleware, no pagination link.
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { listPetsQuery } from '#bench/baselines/requests.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Items } = await client.send(new QueryCommand(listPetsQuery(event)));
  return { statusCode: 200, body: JSON.stringify(Items) };
}
