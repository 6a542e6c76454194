// A restore beside live traffic and a DynamoDB under strain: a create that races the restore for the
// same key keeps its pet, creates running all along are never overwritten, throttling is waited out,
// and a long run shows its progress. A proxy in front of the test DynamoDB stands in for AWS's faults.
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { createPetRequest, getPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { startDynamoDbProxy } from '#local/dynamodb/proxy.ts';
import type { DynamoDbProxy } from '#local/dynamodb/proxy.ts';
import { THROTTLED } from '#test/local/faulty-dynamodb.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { Pet } from '#shared/schemas.ts';
import { toPetItem } from '#shared/store/pet-item.ts';
import { idSortKey, petItemKey } from '#shared/store/table.ts';
import { killScripts } from '#test/support/process.ts';
import { TEST_CURSOR_SECRET, quietObservability } from '#test/support/test-table.ts';
import {
  allItems,
  deleteItem,
  openTable,
  putItems,
  restore,
  summaryLines,
} from '#test/scripts/restore/command.ts';

const tables: LocalDynamoDb[] = [];
const proxies: DynamoDbProxy[] = [];
afterEach(killScripts);
afterAll(async () => {
  await Promise.all([...tables, ...proxies].map((each) => each.close()));
});

async function table(name: string) {
  const opened = await openTable(name);
  tables.push(opened);
  return opened;
}

const pet = (id: number, name = `Pet ${id}`): Pet => ({ id, name, categoryId: 1n, status: 'available' });
const petsFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, index) => pet(first + index));

const functionsOn = (on: LocalDynamoDb) =>
  createSourceFunctions({
    table: on.table,
    cursorSecret: TEST_CURSOR_SECRET,
    observability: quietObservability(),
  });

describe('npm run restore beside creates', () => {
  it('leaves a pet written under the same key while its write was on the way, and reports it', async () => {
    const [backup, target] = [await table('race-backup'), await table('race-target')];
    await putItems(backup, petsFrom(1, 5).map(toPetItem));
    const raced = idSortKey(3);
    const proxy = await startDynamoDbProxy(target.endpoint, {
      // The restore's write of pet 3 waits until a create has written its own pet 3.
      answer: async ({ operation, body }) => {
        if (operation === 'PutItem' && body.toString().includes(`"${raced}"`))
          await putItems(target, [toPetItem(pet(3, 'Created meanwhile'))]);
        return undefined;
      },
    });
    proxies.push(proxy);
    const run = await restore(
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint, PETSTORE_TABLE_NAME: target.tableName },
      ['--from', backup.tableName],
    );
    expect(run.code).toBe(0);
    expect(summaryLines(run.stdout)[0]).toBe(
      '  pets                 4 restored, 0 already there, 1 different',
    );
    expect(run.stdout).toContain('Differences, each left as the target has it:\n  pet 3: name\n');
    const stored = (await allItems(target)).find((item) => item.sk === raced);
    expect(stored?.name).toBe('Created meanwhile');
  });

  it('overwrites none of the pets created while it runs, and brings back every lost one', async () => {
    const target = await table('live');
    const backup = await table('live-backup');
    const functions = functionsOn(target);
    const lost: Pet[] = [];
    for (let index = 0; index < 300; index++) {
      const response = await invoke(
        functions.createPet,
        createPetRequest({ name: `Lost ${index}`, categoryId: 2 }),
      );
      lost.push(response.json as Pet);
    }
    await putItems(backup, await allItems(target));
    for (const each of lost) await deleteItem(target, petItemKey(each.id));

    const running = restore(target, ['--from', backup.tableName]);
    let finished = false;
    void running.then(() => (finished = true));
    const created: Pet[] = [];
    const creating = functionsOn(target);
    while (!finished) {
      const response = await invoke(creating.createPet, createPetRequest({ name: 'Live', categoryId: 3 }));
      expect(response.status).toBe(201);
      created.push(response.json as Pet);
    }
    expect((await running).code).toBe(0);
    expect(created.length).toBeGreaterThan(0);
    const getPet = functionsOn(target).getPet;
    for (const each of [...created, ...lost])
      expect((await invoke(getPet, getPetRequest(String(each.id)))).json).toEqual(each);
  });
});

describe('npm run restore on a DynamoDB under strain', () => {
  it('waits out throttling, beyond the SDK retries, and restores everything', async () => {
    const [backup, target] = [await table('throttled-backup'), await table('throttled-target')];
    await putItems(backup, petsFrom(1, 20).map(toPetItem));
    let throttled = 0;
    const proxy = await startDynamoDbProxy(target.endpoint, {
      answer: ({ operation }) =>
        ['Scan', 'PutItem'].includes(operation) && throttled++ < 5 ? THROTTLED : undefined,
    });
    proxies.push(proxy);
    const run = await restore(
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint, PETSTORE_TABLE_NAME: target.tableName },
      ['--from', backup.tableName],
    );
    expect(run.code).toBe(0);
    expect(throttled).toBeGreaterThan(5);
    expect(summaryLines(run.stdout)[0]).toBe(
      '  pets                 20 restored, 0 already there, 0 different',
    );
    expect(await allItems(target)).toHaveLength(20);
  });

  it('says how far it is every 1,000 items', async () => {
    const [backup, target] = [await table('long-backup'), await table('long-target')];
    await putItems(backup, petsFrom(1, 2_050).map(toPetItem));
    const run = await restore(target, ['--from', backup.tableName]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^restore: 1,000 (of about 2,050 )?items done\nrestore: 2,000 (of about 2,050 )?items done$/m,
    );
    expect(summaryLines(run.stdout)[0]).toBe(
      '  pets                 2,050 restored, 0 already there, 0 different',
    );
  });
});
