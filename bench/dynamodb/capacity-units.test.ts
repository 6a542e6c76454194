// DynamoDB's capacity rules on hand-made items and traces: sizes, read units per 4 KB (half when
// eventually consistent), write units per 1 KB of the larger image, and the index's own writes.
import { describe, expect, test } from '@jest/globals';
import { chargesOf, itemBytes, readUnits, writeUnits } from '#bench/dynamodb/capacity-units.ts';
import type { TraceEntry } from '#bench/dynamodb/capacity-units.ts';

const write = (partition: string, write: TraceEntry['write'], indexWrites: TraceEntry['indexWrites'] = []) =>
  ({ operation: 'PutItem', partition, consistent: true, itemBytes: [], write, indexWrites }) as TraceEntry;

describe('item sizes', () => {
  test('strings count their UTF-8 bytes, names included', () => {
    expect(itemBytes({ pk: { S: 'PET' } })).toBe(2 + 3);
    expect(itemBytes({ name: { S: 'Zoë' } })).toBe(4 + 4);
  });

  test('numbers count one byte per two significant digits, plus one', () => {
    expect(itemBytes({ n: { N: '1' } })).toBe(1 + 2);
    expect(itemBytes({ n: { N: '12345' } })).toBe(1 + 4);
    expect(itemBytes({ n: { N: '1000' } })).toBe(1 + 2);
    expect(itemBytes({ n: { N: '9007199254740993' } })).toBe(1 + 9);
  });

  test('maps and lists add 3 bytes and 1 byte per element', () => {
    expect(itemBytes({ m: { M: { a: { S: 'xy' } } } })).toBe(1 + 3 + 1 + (1 + 2));
    expect(itemBytes({ l: { L: [{ S: 'a' }, { BOOL: true }] } })).toBe(1 + 3 + (1 + 1) + (1 + 1));
  });
});

describe('read units', () => {
  test('round the items read together up to 4 KB, at least one unit', () => {
    expect(readUnits([], true)).toBe(1);
    expect(readUnits([4096], true)).toBe(1);
    expect(readUnits([4097], true)).toBe(2);
    expect(readUnits([3000, 3000], true)).toBe(2);
  });

  test('cost half when eventually consistent', () => {
    expect(readUnits([], false)).toBe(0.5);
    expect(readUnits([3000, 3000], false)).toBe(1);
    expect(readUnits([10_000], false)).toBe(1.5);
  });
});

describe('charges of one request', () => {
  test('a Query is charged to its partition, of the table or of its index', () => {
    const query: TraceEntry = {
      operation: 'Query',
      partition: 'STATUS#sold',
      index: 'byStatus',
      consistent: false,
      itemBytes: Array.from({ length: 21 }, () => 200),
      indexWrites: [],
    };
    expect(chargesOf(query)).toEqual([
      { index: 'byStatus', partition: 'STATUS#sold', readUnits: 1, writeUnits: 0 },
    ]);
  });

  test('a write is charged the larger of the item before and after, per 1 KB', () => {
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
    expect(chargesOf(write('PET', { before: 3000, after: 100, failed: false }))).toEqual([
      { partition: 'PET', readUnits: 0, writeUnits: 3 },
    ]);
  });

  test('a failed conditional write is charged too', () => {
    expect(chargesOf(write('PET', { before: 500, after: 500, failed: true }))).toEqual([
      { partition: 'PET', readUnits: 0, writeUnits: 1 },
    ]);
  });

  test('each index entry a write puts or removes is one more write, on the index partition', () => {
    const moved = write('PET#1', { before: 300, after: 2100, failed: false }, [
      { index: 'byStatus', partition: 'STATUS#sold', bytes: 2100 },
      { index: 'byStatus', partition: 'STATUS#available', bytes: 300 },
    ]);
    expect(chargesOf(moved)).toEqual([
      { partition: 'PET#1', readUnits: 0, writeUnits: 3 },
      { index: 'byStatus', partition: 'STATUS#sold', readUnits: 0, writeUnits: 3 },
      { index: 'byStatus', partition: 'STATUS#available', readUnits: 0, writeUnits: 1 },
    ]);
  });
});
