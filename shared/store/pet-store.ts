// What the handlers need from storage, independent of DynamoDB.
import type { NewPet, Pet, PetStatus } from '#shared/schemas.ts';

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

export interface PetStore {
  /** A new pet with a fresh id. */
  create(pet: NewPet): Promise<Pet>;
  /** A fresh id, for a pet inserted later (idempotent creates fix the id first). */
  reserveId(): Promise<number>;
  /** Writes a pet under its id; when the id is taken, returns the pet already stored there. */
  insert(pet: Pet): Promise<Pet>;
  get(id: bigint): Promise<Pet | undefined>;
  list(request: PetPageRequest): Promise<PetPage>;
}
