// Pet ids come in blocks leased with one UpdateItem ADD on a counter, unique without transactions. A
// young table leases from the first counter: block b goes to shard b mod shards, so the count says
// which shards hold pets yet (what a list needs). Once all do, leases spread over PET_ID_COUNTERS
// counters, so that the instances Lambda starts at once do not all write one partition.
import { PET_ID_MAX } from '#shared/schemas.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { SHARD_ID_SPAN, petIdCounterItemKey, spreadPetIdCounterItemKey } from '#shared/store/table.ts';

export const ID_BLOCK_SIZE = 50;
/**
 * Prime, so that with any power-of-two shard count each counter's blocks still go round every shard:
 * however unevenly the counters are picked, the shards share the writes alike.
 */
export const PET_ID_COUNTERS = 7;
/** The first round of each shard that spread leases take: 2^40 rounds of 50 ids stay the first counter's. */
export const SPREAD_FIRST_ROUND = 2 ** 40;

type Block = { first: number; last: number };

function blockOf(shard: number, round: number): Block {
  const first = shard * SHARD_ID_SPAN + round * ID_BLOCK_SIZE + 1;
  const last = first + ID_BLOCK_SIZE - 1;
  if (last >= (shard + 1) * SHARD_ID_SPAN || last > PET_ID_MAX) throw new Error('Pet id space exhausted');
  return { first, last };
}

/** The ids of block `block` (from 0) of the first counter: the `round`-th block of its shard. */
export const idBlock = (block: number, shards: number): Block =>
  blockOf(block % shards, Math.floor(block / shards));

/** The ids of the `lease`-th block (from 1) of spread counter `counter`. */
export function spreadIdBlock(counter: number, lease: number, shards: number): Block {
  const block = (lease - 1) * PET_ID_COUNTERS + counter;
  return blockOf(block % shards, SPREAD_FIRST_ROUND + Math.floor(block / shards));
}

/** How many blocks the first counter has leased: shards from this count on hold no pet yet. */
export async function leasedBlocks(table: TableClient, { consistent = true } = {}): Promise<number> {
  return Number((await table.get(petIdCounterItemKey, { consistent }))?.value ?? 0);
}

const asCount = (item: Record<string, unknown> | undefined) => {
  const leased = Number(item?.value);
  if (!Number.isSafeInteger(leased) || leased < 1) throw new Error('Pet id block counter is not a count');
  return leased;
};

export type IdAllocatorOptions = {
  /** Hears of each block leased from the first counter, as the count of its blocks so far. */
  onLease?: (leased: number) => void;
  /** Picks a spread counter: a number in [0, 1). */
  random?: (() => number) | undefined;
};

export function createIdAllocator(
  table: TableClient,
  shards: number,
  { onLease, random = Math.random }: IdAllocatorOptions = {},
) {
  let next = 1;
  let last = 0;
  let leasing: Promise<void> | undefined;
  /** Every shard has a block, so the first counter is done with: asked once, then told by each lease. */
  let grown: boolean | undefined;

  async function leaseBlock(): Promise<void> {
    // An eventually consistent read can only be behind: it sends a lease to the first counter, which
    // is still correct, and costs half a unit where a write would cost one.
    grown ??= (await leasedBlocks(table, { consistent: false })) >= shards;
    if (grown) {
      const counter = Math.min(PET_ID_COUNTERS - 1, Math.floor(random() * PET_ID_COUNTERS));
      const leased = asCount(await table.update(spreadPetIdCounterItemKey(counter), { add: { value: 1 } }));
      ({ first: next, last } = spreadIdBlock(counter, leased, shards));
      return;
    }
    const leased = asCount(await table.update(petIdCounterItemKey, { add: { value: 1 } }));
    ({ first: next, last } = idBlock(leased - 1, shards));
    grown = leased >= shards;
    onLease?.(leased);
  }

  /** Ids handed out and given back unused (a replayed create's): handed out again first. */
  const givenBack: number[] = [];

  return {
    async reserve(): Promise<number> {
      const unused = givenBack.pop();
      if (unused !== undefined) return unused;
      while (next > last) {
        // One lease at a time: concurrent callers wait for the same block.
        leasing ??= leaseBlock().finally(() => (leasing = undefined));
        await leasing;
      }
      return next++;
    },
    /** An id `reserve` handed out that nothing was or will be written under. */
    giveBack(id: number): void {
      givenBack.push(id);
    },
  };
}
