// Idempotency records on the single table, one per (API key, Idempotency-Key). A record is
// claimed `in_progress` with the pet id it will use and a lock, and becomes `completed` with the
// pet it produced. Every step is one conditional write, so two requests can never both own a record.
import type { Pet } from '#shared/schemas.ts';
import type { Item, TableClient } from '#shared/store/dynamodb.ts';
import { toPet } from '#shared/store/pet-item.ts';
import type { idempotencyItemKey } from '#shared/store/table.ts';
import { TTL_ATTRIBUTE } from '#shared/store/table.ts';

export const RECORD_TTL_SECONDS = 24 * 60 * 60;

export type RecordKey = ReturnType<typeof idempotencyItemKey>;

/** Past its TTL: no record any more, though DynamoDB deletes it only within days (dynalite never). */
export const hasRecordExpired = (item: Item, now = Date.now()) =>
  item[TTL_ATTRIBUTE] < Math.floor(now / 1000);

export type IdempotencyRecord =
  /** Owned by a request in flight until `lockedUntil` (ms); after it, another may take it over. */
  | { status: 'in_progress'; fingerprint: string; petId: number; lockedUntil: number }
  | { status: 'completed'; fingerprint: string; petId: number; pet: Pet };

export type IdempotencyRecords = ReturnType<typeof createIdempotencyRecords>;

export function createIdempotencyRecords(table: TableClient) {
  /** Only the owner, who knows the lock it set, may change an in-progress record. */
  const ownedBy = (lockedUntil: number) => ({ status: 'in_progress', lockedUntil });

  return {
    /** Claims the key for a new request; false when a live record already holds it. */
    claim(
      key: RecordKey,
      claim: { fingerprint: string; petId: number; lockedUntil: number },
      now = Date.now(),
    ): Promise<boolean> {
      const expiresAt = Math.floor(now / 1000) + RECORD_TTL_SECONDS;
      return table.putIfAbsent(
        { ...key, type: 'idempotency', status: 'in_progress', ...claim, [TTL_ATTRIBUTE]: expiresAt },
        { orExpired: true },
      );
    },

    async read(key: RecordKey): Promise<IdempotencyRecord | undefined> {
      const item = await table.get(key);
      if (!item || hasRecordExpired(item)) return undefined;
      const { fingerprint, petId } = item;
      return item.status === 'completed'
        ? { status: 'completed', fingerprint, petId: Number(petId), pet: toPet(item.pet) }
        : { status: 'in_progress', fingerprint, petId: Number(petId), lockedUntil: Number(item.lockedUntil) };
    },

    /** Moves the lock (and the pet id), only if the lock is still the one `seenLockedUntil` names. */
    async relock(
      key: RecordKey,
      seenLockedUntil: number,
      changes: { lockedUntil: number; petId?: number },
    ): Promise<boolean> {
      return (await table.update(key, { set: changes, expected: ownedBy(seenLockedUntil) })) !== undefined;
    },

    /** Lets an immediate retry take over (with the same pet id) instead of waiting out the lock. */
    async release(key: RecordKey, lockedUntil: number): Promise<void> {
      await table.update(key, { set: { lockedUntil: 0 }, expected: ownedBy(lockedUntil) });
    },

    async complete(key: RecordKey, lockedUntil: number, pet: Pet): Promise<void> {
      await table.update(key, { set: { status: 'completed', pet }, expected: ownedBy(lockedUntil) });
    },
  };
}
