// A test build of GetPetFunction, bundled into a copy of the cloud assembly in place of the real one,
// there only to make an IAM refusal happen on demand: it reads an API key item, which GetPet's role may
// not (it may read the PET partition only), and answers with the name of the error DynamoDB gave.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#shared/store/dynamodb.ts';
import { apiKeyItemKey } from '#shared/store/table.ts';

// Like the real functions: one client per instance, its endpoint and credentials from Lambda's environment.
const documentClient = createDocumentClient();

const answer = (body: unknown): APIGatewayProxyResult => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

export async function handler(): Promise<APIGatewayProxyResult> {
  try {
    await documentClient.send(
      new GetCommand({ TableName: process.env.PETSTORE_TABLE_NAME, Key: apiKeyItemKey('0'.repeat(64)) }),
    );
    return answer({ error: null });
  } catch (error) {
    return answer({ error: (error as Error).name });
  }
}
