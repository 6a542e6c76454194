// createPet below the SDK: the baseline's conditional PutItem, signed and sent by hand.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createPetWrite } from '#bench/baselines/requests.ts';
import { dynamoDbRequest } from '#bench/floors/dynamodb-request.ts';

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { input, pet } = createPetWrite(event);
  await dynamoDbRequest('PutItem', input);
  return { statusCode: 201, body: JSON.stringify(pet) };
}
