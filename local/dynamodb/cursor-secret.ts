// The local server's cursor secret lives in the table it serves, so cursors stay valid across restarts
// and across servers sharing one DynamoDB, as they do across deployments in AWS (where Secrets Manager
// keeps it). The first server writes it (conditionally: concurrent first starts agree), later ones read it.
import { randomBytes } from 'node:crypto';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { TABLE_KEY } from '#shared/store/table.ts';

const secretItemKey = (name: string) => ({ [TABLE_KEY.partitionKey]: 'CONFIG', [TABLE_KEY.sortKey]: name });

/** A random secret kept in the table under `name`: the first to ask writes it, the later ones read it. */
export async function tableSecret(table: TableClient, name: string): Promise<string> {
  await table.putIfAbsent({ ...secretItemKey(name), secret: randomBytes(32).toString('base64url') });
  const item = await table.get(secretItemKey(name));
  if (typeof item?.secret !== 'string') throw new Error(`No secret ${name} in table ${table.tableName}`);
  return item.secret;
}

export const tableCursorSecret = (table: TableClient) => tableSecret(table, 'CURSOR_SECRET');
