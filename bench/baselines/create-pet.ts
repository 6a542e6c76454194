// The baseline for createPet with the AWS SDK: create the client, send the one conditional PutItem
// the operation needs, answer with the pet.
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createPetWrite } from '#bench/baselines/requests.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { input, pet } = createPetWrite(event);
  await client.send(new PutItemCommand(input));
  return { statusCode: 201, body: JSON.stringify(pet) };
}
