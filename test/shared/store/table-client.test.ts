// The table client on a real DynamoDB implementation: numbers read back exactly as written,
// conditional writes report instead of throwing, and updates change only what they name.
import { describe, expect, it } from '@jest/globals';
import { TABLE_KEY } from '#shared/store/table.ts';
import { testTable } from '#test/support/test-table.ts';

const key = (sort: string) => ({ [TABLE_KEY.partitionKey]: 'GATEWAY_TEST', [TABLE_KEY.sortKey]: sort });

describe('the table client', () => {
  it('reads integers beyond 2^53 as exact bigints and fractional numbers as numbers', async () => {
    await testTable.putIfAbsent({ ...key('numbers'), big: 9_223_372_036_854_775_807n, small: 7, ratio: 1.5 });
    expect(await testTable.get(key('numbers'))).toMatchObject({
      big: 9_223_372_036_854_775_807n,
      small: 7,
      ratio: 1.5,
    });
  });

  it('never replaces an item with putIfAbsent', async () => {
    expect(await testTable.putIfAbsent({ ...key('once'), value: 'first' })).toBe(true);
    expect(await testTable.putIfAbsent({ ...key('once'), value: 'second' })).toBe(false);
    expect(await testTable.get(key('once'))).toMatchObject({ value: 'first' });
  });

  it('updates only when the expected values hold, and adds atomically', async () => {
    await testTable.putIfAbsent({ ...key('counter'), state: 'open', count: 1 });
    expect(
      await testTable.update(key('counter'), { add: { count: 2 }, expected: { state: 'open' } }),
    ).toEqual({
      count: 3,
    });
    expect(
      await testTable.update(key('counter'), { set: { state: 'shut' }, expected: { state: 'other' } }),
    ).toBe(undefined);
    expect(await testTable.get(key('counter'))).toMatchObject({ state: 'open', count: 3 });
  });

  it('queries a partition in sort key order, after a position and up to a limit', async () => {
    for (const sort of ['q3', 'q1', 'q2']) await testTable.putIfAbsent({ ...key(sort) });
    const sorts = (items: Record<string, unknown>[]) => items.map((item) => item[TABLE_KEY.sortKey]);
    const partition = 'GATEWAY_TEST';
    expect(sorts(await testTable.query({ partition, afterSortKey: 'q1', limit: 1 }))).toEqual(['q2']);
    expect(sorts(await testTable.query({ partition, afterSortKey: 'p' }))).toEqual(['q1', 'q2', 'q3']);
  });
});
