// What the handlers need from storage, independent of DynamoDB.
import type { ListFilters, Pet } from '#shared/schemas.ts';

/** Where a walk goes on: the shard to read next, and the last id listed before it. */
export type PagePosition = { shard: number; afterId: number };

export type PetPageRequest = {
  limit: number;
  /** Only pets with these values (listPets' filters); every pet when empty. */
  filter?: ListFilters | undefined;
  /** Only pets after this position are listed (the position a cursor carries); the start when absent. */
  after?: PagePosition | undefined;
};

export type PetPage = {
  pets: Pet[];
  /** Where the next page starts, when more pets follow the page; absent on the last page. */
  next?: PagePosition;
};

/** A write never replaces a pet: when the id is taken, what is stored there comes back instead. */
export type InsertResult = { inserted: true } | { inserted: false; occupant: Pet | undefined };

export interface PetStore {
  /** A fresh id from the counter. An idempotent create fixes it in its record before the write. */
  reserveId(): Promise<number>;
  /** An id reserveId gave that nothing was written under (the create was a replay): it is given again. */
  returnId(id: number): void;
  insert(pet: Pet): Promise<InsertResult>;
  get(id: bigint): Promise<Pet | undefined>;
  list(request: PetPageRequest): Promise<PetPage>;
}
