// The whole stack in front of the functions (local/api-gateway/gateway.ts, as `npm start` serves it)
// on this test file's table, called as a client would, with the checks every answer to hostile input
// must pass: never a 5xx, always the Error shape, and no stack trace or source path in a message.
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from '@jest/globals';
import { DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { sourceApiGateway } from '#local/api-gateway/source-gateway.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import type { PagePosition } from '#shared/store/pet-store.ts';
import { testApiKeys, testFunctions, testTable } from '#test/support/test-table.ts';

/** Runs of each property. */
export const RUNS = { numRuns: 150 };
/** The one body sent with an Idempotency-Key, so that a key two properties happen to share replays. */
export const KEYED_BODY = '{"name":"Key","categoryId":1}';
/** Keeps a generated header value to what a header can carry. */
export const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e]/g, '');

export const handleGatewayRequest = sourceApiGateway(testFunctions);
const petStore = createDynamoDbPetStore(testTable);

let key: string;
/** The creates answered 201 (a replay aside): what the table must hold at the end. */
export const created = { count: 0 };

beforeAll(async () => {
  key = (await testApiKeys.issue('properties')).key;
});

export type Call = { method: string; target: string; headers?: [string, string][]; body?: Buffer | string };

export async function call({ method, target, headers = [], body = '' }: Call) {
  const result = await handleGatewayRequest({
    method,
    target,
    headers: [['Authorization', `Bearer ${key}`], ...headers],
    body: Buffer.from(body),
    bodyBytes: Buffer.byteLength(body),
    sourceIp: '127.0.0.1',
    requestId: randomUUID(),
  });
  const json = JSON.parse(result.body) as Record<string, unknown>;
  expect(result.statusCode).toBeLessThan(500);
  if (result.statusCode >= 400) {
    expect(json).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      status: result.statusCode,
    });
    expect(result.headers?.['Content-Type']).toBe('application/json');
    expect(String(json.message)).not.toMatch(/Exception|Error:|\n\s+at |node_modules|\.ts\b/);
  }
  return { status: result.statusCode, json, headers: result.headers ?? {} };
}

const dynamoDb = new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });

/** Every item of the table, pets, keys and counters alike: a rejected request adds none. One scan. */
export async function storedItems(): Promise<number> {
  let count = 0;
  for await (const page of paginateScan(
    { client: dynamoDb },
    { TableName: testTable.tableName, Select: 'COUNT' },
  ))
    count += page.Count ?? 0;
  return count;
}

async function storedPets(): Promise<number> {
  let count = 0;
  let after: PagePosition | undefined;
  do {
    const page = await petStore.list({ limit: 100, after });
    count += page.pets.length;
    after = page.next;
  } while (after !== undefined);
  return count;
}

/** Registers the file's last test: the table holds exactly the pets its creates were answered 201 for. */
export function storedExactlyTheCreated() {
  it('stored exactly the accepted creates', async () => {
    expect(await storedPets()).toBe(created.count);
  });
}
