// The local server's cursor secret lives in the table it serves, so cursors stay valid across
// restarts and across servers sharing one DynamoDB, as they do across deployments in AWS. The
// first server writes it (conditionally: concurrent first starts agree), every later one reads it.
import { randomBytes } from 'node:crypto';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from '#shared/store/errors.ts';
import { IF_ABSENT, cursorSecretKey } from '#shared/store/table.ts';

const key = { pk: { S: cursorSecretKey.pk }, sk: { S: cursorSecretKey.sk } };

export async function tableCursorSecret(client: DynamoDBClient, tableName: string): Promise<string> {
  await client
    .send(
      new PutItemCommand({
        TableName: tableName,
        Item: { ...key, secret: { S: randomBytes(32).toString('base64url') } },
        ConditionExpression: IF_ABSENT,
      }),
    )
    .catch((error: Error) => {
      if (!isConditionFailure(error)) throw error;
    });
  const { Item } = await client.send(
    new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  const secret = Item?.secret?.S;
  if (!secret) throw new Error(`No cursor secret in table ${tableName}`);
  return secret;
}
