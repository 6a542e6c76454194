// The local server's cursor secret lives in the table it serves, so cursors stay valid across
// restarts and across servers sharing one DynamoDB, as they do across deployments in AWS. The
// first server writes it (conditionally: concurrent first starts agree), every later one reads it.
// Deployed stages get theirs from Secrets Manager instead.
import { randomBytes } from 'node:crypto';
import type { TableGateway } from '#shared/store/dynamodb.ts';
import { TABLE_KEY } from '#shared/store/table.ts';

const CURSOR_SECRET_ITEM_KEY = { [TABLE_KEY.partitionKey]: 'CONFIG', [TABLE_KEY.sortKey]: 'CURSOR_SECRET' };

export async function tableCursorSecret(table: TableGateway): Promise<string> {
  await table.putIfAbsent({ ...CURSOR_SECRET_ITEM_KEY, secret: randomBytes(32).toString('base64url') });
  const item = await table.get(CURSOR_SECRET_ITEM_KEY);
  if (typeof item?.secret !== 'string') throw new Error(`No cursor secret in table ${table.tableName}`);
  return item.secret;
}
