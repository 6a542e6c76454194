// Pet ids come from one atomic counter of blocks: each process leases a block with a single
// UpdateItem ADD and hands its ids out one by one. Block b goes to shard b mod shards, so that
// concurrent processes write to different shards; ids are unique without transactions, and a create
// costs 1 + 1/ID_BLOCK_SIZE writes.
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { TableGateway } from '#shared/store/dynamodb.ts';
import { SHARD_ID_SPAN, petIdCounterItemKey } from '#shared/store/table.ts';

export const ID_BLOCK_SIZE = 50;

/** The ids of block `block` (from 0): the `round`-th block of its shard, from the shard's first id. */
export function idBlock(block: number, shards: number): { first: number; last: number } {
  const [shard, round] = [block % shards, Math.floor(block / shards)];
  const first = shard * SHARD_ID_SPAN + round * ID_BLOCK_SIZE + 1;
  const last = first + ID_BLOCK_SIZE - 1;
  if (last >= (shard + 1) * SHARD_ID_SPAN || last > PET_ID_MAX) throw new Error('Pet id space exhausted');
  return { first, last };
}

/** How many blocks have been leased: shards from this count on hold no pet yet. */
export async function leasedBlocks(table: TableGateway): Promise<number> {
  return Number((await table.get(petIdCounterItemKey))?.value ?? 0);
}

/** `onLease` hears of each block this allocator leases, as a count of blocks leased so far. */
export function createIdAllocator(table: TableGateway, shards: number, onLease?: (leased: number) => void) {
  let next = 1;
  let last = 0;
  let leasing: Promise<void> | undefined;

  async function leaseBlock(): Promise<void> {
    const counter = await table.update(petIdCounterItemKey, { add: { value: 1 } });
    const leased = Number(counter?.value);
    if (!Number.isSafeInteger(leased) || leased < 1) throw new Error('Pet id block counter is not a count');
    ({ first: next, last } = idBlock(leased - 1, shards));
    onLease?.(leased);
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
