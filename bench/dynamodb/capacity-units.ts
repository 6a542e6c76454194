// DynamoDB's capacity rules, as its developer guide states them: an item's size from its attributes,
// read units per 4 KB (half for an eventually consistent read, at least one unit's worth even when
// nothing is found), write units per 1 KB of the larger of the item before and after (a failed
// conditional write included), and one more write to each index entry the write puts or removes.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type AttributeMap = Record<string, AttributeValue>;

/** One DynamoDB request as the capacity model sees it. */
export type TraceEntry = {
  operation: string;
  /** The partition key value the request addresses: the index's own for a Query on an index. */
  partition: string;
  /** The index a Query reads; absent for the table. */
  index?: string;
  consistent: boolean;
  /** A read's items: the size of each one returned (none for an absent item or an empty Query). */
  itemBytes: number[];
  /** A write: the stored item's size before and after (0: absent), and whether its condition failed. */
  write?: { before: number; after: number; failed: boolean };
  /** The index entries a write put, changed or removed: one more write each, on the index's partition. */
  indexWrites: { index: string; partition: string; bytes: number }[];
};

/** Units charged to one partition key, of the table or of one index. */
export type Charge = { index?: string; partition: string; readUnits: number; writeUnits: number };

const READ_UNIT_BYTES = 4096;
const WRITE_UNIT_BYTES = 1024;
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: one byte per two significant digits, plus one. */
function numberBytes(text: string): number {
  const digits = text.replace(/^-/, '').replace('.', '').replace(/e.*$/i, '');
  const significant = digits.replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(significant.length, 1) / 2) + 1;
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8Bytes(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, text) => sum + utf8Bytes(text), 0);
  if (value.NS) return value.NS.reduce((sum, text) => sum + numberBytes(text), 0);
  if (value.BS) return value.BS.reduce((sum, bytes) => sum + bytes.length, 0);
  // A list or map: 3 bytes, and 1 byte per element beside the elements' own sizes.
  if (value.L) return 3 + value.L.reduce((sum, element) => sum + 1 + valueBytes(element), 0);
  if (value.M) return 3 + Object.keys(value.M).length + itemBytes(value.M);
  throw new Error(`Unknown attribute value ${JSON.stringify(value)}`);
}

/** The item's size as DynamoDB counts it: each attribute's name and value. */
export function itemBytes(item: AttributeMap): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8Bytes(name) + valueBytes(value), 0);
}

/** Read units for items read together (one GetItem, or one Query's items summed before rounding). */
export function readUnits(bytes: number[], consistent: boolean): number {
  const total = bytes.reduce((sum, size) => sum + size, 0);
  const units = Math.max(1, Math.ceil(total / READ_UNIT_BYTES));
  return consistent ? units : units / 2;
}

export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));

/** What one request costs, partition key by partition key. */
export function chargesOf(entry: TraceEntry): Charge[] {
  const { index, partition } = entry;
  if (!entry.write)
    return [{ index, partition, readUnits: readUnits(entry.itemBytes, entry.consistent), writeUnits: 0 }];
  const { before, after } = entry.write;
  return [
    { partition, readUnits: 0, writeUnits: writeUnits(Math.max(before, after)) },
    ...entry.indexWrites.map((write) => ({
      index: write.index,
      partition: write.partition,
      readUnits: 0,
      writeUnits: writeUnits(write.bytes),
    })),
  ];
}
