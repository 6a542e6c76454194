// Pet ids come from one atomic counter, leased in blocks: each process reserves a block with a
// single UpdateItem ADD and hands its ids out one by one. Ids are unique across any number of
// concurrent processes without transactions, and a create costs 1 + 1/ID_BLOCK_SIZE writes.
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { TableGateway } from '#shared/store/dynamodb.ts';
import { petIdCounterItemKey } from '#shared/store/table.ts';

const ID_BLOCK_SIZE = 50;

export function createIdAllocator(table: TableGateway) {
  let next = 1;
  let last = 0;
  let leasing: Promise<void> | undefined;

  async function leaseBlock(): Promise<void> {
    const counter = await table.update(petIdCounterItemKey, { add: { value: ID_BLOCK_SIZE } });
    const blockEnd = Number(counter?.value);
    if (!Number.isSafeInteger(blockEnd) || blockEnd > PET_ID_MAX) throw new Error('Pet id space exhausted');
    next = blockEnd - ID_BLOCK_SIZE + 1;
    last = blockEnd;
  }

  return async function nextId(): Promise<number> {
    while (next > last) {
      // One lease at a time: concurrent callers wait for the same block.
      leasing ??= leaseBlock().finally(() => (leasing = undefined));
      await leasing;
    }
    return next++;
  };
}
