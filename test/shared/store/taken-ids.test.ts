// A fresh id can already be taken when the id counter is behind the pets in the table, for
// example after items written by another tool. A create then moves on to the next id (a bounded
// number of times) and logs the repair; what is stored under a taken id is never touched.
import { describe, expect, it, jest } from '@jest/globals';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { createPetRequest, getPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { createObservability } from '#shared/observability.ts';
import type { Pet } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { TEST_CURSOR_SECRET, testFunctions, testTable } from '#test/support/test-table.ts';

const observability = createObservability({ logLevel: 'OFF', metrics: false });
const warnings: unknown[][] = [];
jest.spyOn(observability.logger, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
const { createPet } = createSourceFunctions({
  table: testTable,
  cursorSecret: TEST_CURSOR_SECRET,
  observability,
});
const { getPet } = testFunctions;
/** Another writer of the table, with a counter lease of its own. */
const otherTool = createDynamoDbPetStore(testTable);

const create = async (name: string, headers: [string, string][] = []) =>
  invoke(createPet, createPetRequest({ name, categoryId: 1 }, { headers }));
const read = async (id: number) => (await invoke(getPet, getPetRequest(String(id)))).json;

/** Writes foreign pets under the `count` ids that follow `afterId`. */
async function occupy(afterId: number, count: number) {
  for (let id = afterId + 1; id <= afterId + count; id++) {
    expect(await otherTool.insert({ id, name: 'Squatter', categoryId: 9n, status: 'sold' })).toEqual({
      inserted: true,
    });
  }
}

describe('a create whose fresh id is taken', () => {
  it('takes the next free id, logs each repair and leaves the taken pets as they were', async () => {
    const first = (await create('First')).json as Pet;
    await occupy(first.id, 2);
    warnings.length = 0;
    const response = await create('Second');
    expect(response.status).toBe(201);
    expect((response.json as Pet).id).toBe(first.id + 3);
    expect(await read(first.id + 1)).toMatchObject({ name: 'Squatter' });
    expect(warnings.map(([message, details]) => [String(message).split(':')[0], details])).toEqual([
      ['Pet id already taken', { takenId: first.id + 1, nextId: first.id + 2 }],
      ['Pet id already taken', { takenId: first.id + 2, nextId: first.id + 3 }],
    ]);
  });

  it('with an Idempotency-Key, records the id it moved to, so a retry replays that pet', async () => {
    const first = (await create('Before')).json as Pet;
    await occupy(first.id, 1);
    const headers: [string, string][] = [['Idempotency-Key', `moved-${first.id}`]];
    const created = await create('Moved', headers);
    expect(created.status).toBe(201);
    expect((created.json as Pet).id).toBe(first.id + 2);
    const replayed = await create('Moved', headers);
    expect(replayed.headers['Idempotent-Replayed']).toBe('true');
    expect(replayed.json).toEqual(created.json);
  });

  it('gives up with a 500 after ten taken ids in a row, creating nothing', async () => {
    const first = (await create('Start')).json as Pet;
    await occupy(first.id, 11);
    const response = await create('Blocked');
    expect(response.json).toMatchObject({ code: 'internal_error', status: 500 });
    for (let id = first.id + 1; id <= first.id + 11; id++)
      expect(await read(id)).toMatchObject({ name: 'Squatter' });
  });
});
