// What the handlers need from storage, independent of DynamoDB.
import type { Pet, PetStatus } from '#shared/schemas.ts';

export type PetPageRequest = {
  limit: number;
  status?: PetStatus | undefined;
  /** Only pets with a greater id are listed (the position a cursor carries). */
  afterId?: number | undefined;
};

export type PetPage = {
  pets: Pet[];
  /** The id of the page's last pet when more pets follow it; absent on the last page. */
  lastId?: number;
};

/** A write never replaces a pet: when the id is taken, what is stored there comes back instead. */
export type InsertResult = { inserted: true } | { inserted: false; occupant: Pet | undefined };

export interface PetStore {
  /** A fresh id from the counter. An idempotent create fixes it in its record before the write. */
  reserveId(): Promise<number>;
  insert(pet: Pet): Promise<InsertResult>;
  get(id: bigint): Promise<Pet | undefined>;
  list(request: PetPageRequest): Promise<PetPage>;
}
