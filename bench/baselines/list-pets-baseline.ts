// The floor for listPets: create the client, send the one Query the operation needs (the status
// index, same key condition, limit + 1 items), answer with the raw items. Nothing validated,
// no middleware, no pagination link. It imports only key builders from shared/store/table.ts
// (no zod: shared/schemas.ts would pull it in).
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { STATUS_INDEX, idSortKey } from '#shared/store/table.ts';

const client = new DynamoDBClient({});

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { Items } = await client.send(
    new QueryCommand({
      TableName: process.env.PETSTORE_TABLE_NAME,
      IndexName: STATUS_INDEX.name,
      KeyConditionExpression: `${STATUS_INDEX.partitionKey} = :partition AND ${STATUS_INDEX.sortKey} > :after`,
      ExpressionAttributeValues: {
        ':partition': { S: `STATUS#${event.queryStringParameters?.status}` },
        ':after': { S: idSortKey(0) },
      },
      // The default page of 20, plus the one item that tells whether a next page exists.
      Limit: 21,
    }),
  );
  return { statusCode: 200, body: JSON.stringify(Items) };
}
