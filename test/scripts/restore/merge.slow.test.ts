// A restore after a loss, as the runbook runs it: the table is snapshotted (a point-in-time restore),
// then pets are created, a key is revoked, the id counters move on and some pets and a key are lost;
// `npm run restore` brings back what was lost and nothing the later writes ended. The tables are on
// the test DynamoDB (dynalite, or DynamoDB Local when AWS_ENDPOINT_URL_DYNAMODB names it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPetRequest, getPetRequest, invoke } from '#local/api-gateway/proxy-requests.ts';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { Pet } from '#shared/schemas.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import type { Item } from '#shared/store/dynamodb.ts';
import { COUNTER_PARTITION, idempotencyItemKey, petItemKey } from '#shared/store/table.ts';
import { killScripts } from '#test/support/process.ts';
import { TEST_CURSOR_SECRET, quietObservability } from '#test/support/test-table.ts';
import {
  allItems,
  deleteItem,
  openTable,
  putItems,
  restore,
  snapshot,
  summaryLines,
} from '#test/scripts/restore/command.ts';

let target: LocalDynamoDb;
let backup: LocalDynamoDb;
const tables: LocalDynamoDb[] = [];
/** Pets as created before the snapshot, and after it. */
const before: Pet[] = [];
const later: Pet[] = [];
const keys = {} as Record<'revokedLater' | 'lost' | 'kept', IssuedApiKey>;
let countersBefore: Item[];
let restored: Awaited<ReturnType<typeof restore>>;

/** A Lambda instance of each function: a new one leases a new block of ids. */
const instance = () =>
  createSourceFunctions({
    table: target.table,
    cursorSecret: TEST_CURSOR_SECRET,
    observability: quietObservability(),
  });

async function create(functions: ReturnType<typeof instance>, name: string, idempotencyKey?: string) {
  const headers: [string, string][] = idempotencyKey ? [['Idempotency-Key', idempotencyKey]] : [];
  const response = await invoke(functions.createPet, createPetRequest({ name, categoryId: 1 }, { headers }));
  expect(response.status).toBe(201);
  return response.json as Pet;
}

const read = async (id: number) => invoke(instance().getPet, getPetRequest(String(id)));
const counters = async () =>
  (await allItems(target)).filter((item) => String(item.pk).startsWith(COUNTER_PARTITION));

beforeAll(async () => {
  target = await openTable('target');
  tables.push(target);
  const first = instance();
  for (const name of ['Rex', 'Tom', 'Kiki', 'Bo', 'Lu', 'Max'])
    before.push(await create(first, name, name === 'Rex' || name === 'Tom' ? `first-${name}` : undefined));
  const apiKeys = createApiKeyStore(target.table);
  keys.revokedLater = await apiKeys.issue('revoked later');
  keys.lost = await apiKeys.issue('lost');
  keys.kept = await apiKeys.issue('kept');

  backup = await snapshot(target);
  tables.push(backup);
  // What the backup holds besides: a replay record past its 24 hours, and an item of no known kind.
  const expiredRecord = { ...idempotencyItemKey('key_old', 'f00d'), status: 'completed', expiresAt: 1 };
  await putItems(backup, [expiredRecord, { pk: 'UNKNOWN', sk: 'ITEM' }]);

  const second = instance();
  for (const name of ['Nia', 'Oz', 'Pip']) later.push(await create(second, name));
  await apiKeys.revoke(keys.revokedLater.id);
  for (const pet of [before[0], before[2], before[4]]) await deleteItem(target, petItemKey(pet?.id ?? 0));
  const lostKey = (await allItems(target)).find((item) => item.id === keys.lost.id) ?? {};
  const lostRecord = (await allItems(target)).find((item) => item.pet?.name === 'Rex') ?? {};
  await deleteItem(target, lostKey);
  await deleteItem(target, lostRecord);
  countersBefore = await counters();

  restored = await restore(target, ['--from', backup.tableName]);
});
afterAll(async () => {
  killScripts();
  await Promise.all(tables.map((table) => table.close()));
});

describe('npm run restore after a loss', () => {
  it('says where it goes, then sums up what it did by kind, with the differences it found', () => {
    expect(restored.code).toBe(0);
    expect(restored.stderr.split('\n')[0]).toBe(
      `restore: from table ${backup.tableName} into table ${target.tableName} at ${target.endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`,
    );
    expect(restored.stdout).toBe(
      [
        `Restored 14 items of table ${backup.tableName} into table ${target.tableName} at ${target.endpoint}:`,
        '  pets                 3 restored, 3 already there, 0 different',
        '  id counters          0 raised, 1 already as high',
        '  pet layout           0 restored, 0 already there, 0 different',
        '  API keys             1 restored, 1 already there, 1 different',
        '  idempotency records  1 restored, 1 already there, 0 different, 1 expired',
        '  other items          1 left out',
        'Differences, each left as the target has it:',
        `  API key ${keys.revokedLater.id}: revokedAt`,
        '',
      ].join('\n'),
    );
  });

  it('brings back every lost pet as it was', async () => {
    for (const pet of before) expect((await read(pet.id)).json).toEqual(pet);
  });

  it('leaves the later pets and the revocation as they are, and brings back the lost key', async () => {
    for (const pet of later) expect((await read(pet.id)).json).toEqual(pet);
    const apiKeys = createApiKeyStore(target.table);
    expect(await apiKeys.findActive(keys.revokedLater.key)).toBeUndefined();
    expect(await apiKeys.findActive(keys.lost.key)).toMatchObject({ id: keys.lost.id, name: 'lost' });
    expect(await apiKeys.findActive(keys.kept.key)).toMatchObject({ id: keys.kept.id });
  });

  it('sends no id counter back', async () => {
    const after = await counters();
    expect(after.map(({ pk }) => pk)).toEqual(countersBefore.map(({ pk }) => pk));
    for (const [index, counter] of after.entries())
      expect(Number(counter.value)).toBeGreaterThanOrEqual(Number(countersBefore[index]?.value));
  });

  it('leaves the expired replay record and the unknown item out', async () => {
    const kinds = (await allItems(target)).map(({ pk }) => String(pk));
    expect(kinds).not.toContain('UNKNOWN');
    expect(kinds).not.toContain(idempotencyItemKey('key_old', 'f00d').pk);
  });

  it('lets new creates, old instances and new, take fresh ids', async () => {
    const taken = new Set([...before, ...later].map((pet) => pet.id));
    const fresh = [await create(instance(), 'New'), await create(instance(), 'Newer')];
    for (const pet of fresh) expect(taken.has(pet.id)).toBe(false);
    expect(fresh[0]?.id).not.toBe(fresh[1]?.id);
  });

  it('brings back a lost replay record, so that a retry within 24 hours replays its pet', async () => {
    const replay = await invoke(
      instance().createPet,
      createPetRequest({ name: 'Rex', categoryId: 1 }, { headers: [['Idempotency-Key', 'first-Rex']] }),
    );
    expect(replay.json).toEqual(before[0]);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
  });

  it('changes nothing when run again', async () => {
    const items = await allItems(target);
    const again = await restore(target, ['--from', backup.tableName]);
    expect(again.code).toBe(0);
    expect(summaryLines(again.stdout).slice(0, 2)).toEqual([
      '  pets                 0 restored, 6 already there, 0 different',
      '  id counters          0 raised, 1 already as high',
    ]);
    expect(await allItems(target)).toEqual(items);
  });

  it('in a dry run, writes nothing and prints the summary the restore then prints', async () => {
    await deleteItem(target, petItemKey(before[1]?.id ?? 0));
    const items = await allItems(target);
    const dryRun = await restore(target, ['--from', backup.tableName, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout.split('\n')[0]).toBe(
      `Dry run, nothing written: restoring 14 items of table ${backup.tableName} into table ${target.tableName} at ${target.endpoint} would give:`,
    );
    expect(summaryLines(dryRun.stdout)[0]).toBe(
      '  pets                 1 restored, 5 already there, 0 different',
    );
    expect(await allItems(target)).toEqual(items);
    const real = await restore(target, ['--from', backup.tableName]);
    expect(summaryLines(real.stdout)).toEqual(summaryLines(dryRun.stdout));
    expect((await read(before[1]?.id ?? 0)).json).toEqual(before[1]);
  });
});

describe('npm run restore into a new table, as for a re-created stage', () => {
  it('brings back every item of a known kind, counters included, and new creates take fresh ids', async () => {
    const empty = await openTable('new');
    tables.push(empty);
    const { code, stdout } = await restore(empty, ['--from', backup.tableName]);
    expect(code).toBe(0);
    expect(summaryLines(stdout)).toEqual([
      '  pets                 6 restored, 0 already there, 0 different',
      '  id counters          1 raised, 0 already as high',
      '  pet layout           0 restored, 0 already there, 0 different',
      '  API keys             3 restored, 0 already there, 0 different',
      '  idempotency records  2 restored, 0 already there, 0 different, 1 expired',
      '  other items          1 left out',
      'No differences.',
    ]);
    const functions = createSourceFunctions({
      table: empty.table,
      cursorSecret: TEST_CURSOR_SECRET,
      observability: quietObservability(),
    });
    const response = await invoke(functions.createPet, createPetRequest({ name: 'First', categoryId: 1 }));
    expect(before.map((pet) => pet.id)).not.toContain((response.json as Pet).id);
  });
});
