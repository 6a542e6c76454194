// DynamoDB faults behind the real local server: unreachable or throttling, the client gets
// 503 service_unavailable with Retry-After, never a hang or a stack trace; what was created is kept.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sourceApiGateway } from '#local/api-gateway/source-gateway.ts';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { startLocalServer } from '#local/server/http-server.ts';
import type { LocalServer } from '#local/server/http-server.ts';
import type { Pet } from '#shared/schemas.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { startFaultyDynamoDb } from '#test/local/faulty-dynamodb.ts';
import { httpClient } from '#test/support/http.ts';
import type { HttpResponse } from '#test/support/http.ts';
import { TEST_CURSOR_SECRET, quietObservability } from '#test/support/test-table.ts';

let dynamoDb: Awaited<ReturnType<typeof startFaultyDynamoDb>>;
let local: LocalDynamoDb;
let server: LocalServer;
let request: ReturnType<typeof httpClient>;

beforeAll(async () => {
  dynamoDb = await startFaultyDynamoDb(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '');
  local = await openLocalDynamoDb({
    endpoint: dynamoDb.endpoint,
    tableName: `petstore-faults-${randomUUID()}`,
  });
  const functions = createSourceFunctions({
    table: local.table,
    cursorSecret: TEST_CURSOR_SECRET,
    observability: quietObservability(),
  });
  server = await startLocalServer({ gateway: sourceApiGateway(functions), port: 0 });
  const { key } = await createApiKeyStore(local.table).issue('faults');
  request = httpClient({ url: server.url, apiKey: key });
});

afterAll(async () => {
  await server.close();
  await local.close();
  await dynamoDb.close();
});

const create = (i: number) =>
  request('/v1/pets', { method: 'POST', body: JSON.stringify({ name: `Storm ${i}`, categoryId: i + 1 }) });

function expectUnavailable(response: HttpResponse) {
  expect(response.status).toBe(503);
  expect(response.json).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
  expect(response.headers.get('retry-after')).toBe('1');
  expect(response.text).not.toMatch(/Exception|at .*\.ts|node_modules/);
}

describe('when DynamoDB fails', () => {
  it('answers 503 with Retry-After while DynamoDB throttles, on every operation', async () => {
    const pet = (await create(0)).json as Pet;
    dynamoDb.setMode('throttling');
    try {
      expectUnavailable(await request('/v1/pets'));
      expectUnavailable(await create(1));
      expectUnavailable(await request(`/v1/pets/${pet.id}`));
    } finally {
      dynamoDb.setMode('up');
    }
  });

  it('answers only 201 or 503 when DynamoDB goes away mid-load, and keeps every 201', async () => {
    const settled: HttpResponse[] = [];
    let next = 0;
    // 10 clients create 120 pets between them; DynamoDB goes away once 40 are answered.
    async function client() {
      while (next < 120) {
        settled.push(await create(next++));
        if (settled.length === 40) await dynamoDb.stop();
      }
    }
    await Promise.all(Array.from({ length: 10 }, client));
    for (const response of settled) {
      if (response.status !== 201) expectUnavailable(response);
    }
    const created = settled
      .filter((response) => response.status === 201)
      .map((response) => response.json as Pet);
    expect(created.length).toBeGreaterThanOrEqual(40);
    expect(settled.filter((response) => response.status === 503).length).toBeGreaterThanOrEqual(60);

    await dynamoDb.restart();
    for (const pet of created) {
      const read = await request(`/v1/pets/${pet.id}`);
      expect(read.json).toEqual(pet);
    }
  });
});
