// The one way to create a pet, with or without the contract's Idempotency-Key. Within 24 hours the
// same key and body replay the first Animal and create nothing; another body is 422, a first
// request still in flight is 409. The pet id is fixed when the key is claimed, so a request that
// died half-way is finished by its retry with the same id: exactly one pet, whatever failed where.
import { createHash } from 'node:crypto';
import { ApiError } from '#shared/api-error.ts';
import { stringifyJson } from '#shared/json.ts';
import type { Logger } from '#shared/observability.ts';
import type { NewPet, Pet } from '#shared/schemas.ts';
import type { IdempotencyRecords, RecordKey } from '#shared/store/idempotency-records.ts';
import { isPetOf } from '#shared/store/pet-item.ts';
import type { PetStore } from '#shared/store/pet-store.ts';
import { StoreUnavailableError } from '#shared/store/unavailable-error.ts';
import { idempotencyItemKey } from '#shared/store/table.ts';
import { IN_FLIGHT_MS } from '#shared/timeouts.ts';

export type IdempotentRequest = { scope: string; key: string; body: unknown };
export type CreateOutcome = { pet: Pet; replayed: boolean };
export type PetCreation = { pets: PetStore; idempotencyRecords: IdempotencyRecords; logger: Logger };

/**
 * A fresh id is taken only when the counter is behind the pets in the table (items written by
 * another tool, say): the create moves on to the next id, this many times at most.
 */
const MAX_TAKEN_IDS = 10;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Parsed JSON with sorted keys: key order and spacing do not change a body's fingerprint. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, canonical((value as Record<string, unknown>)[name])]),
  );
}

const inProgress = () =>
  new ApiError('idempotency_conflict', 'Idempotency-Key: a request with this key is still in progress');
const usedWithAnotherBody = () =>
  new ApiError('idempotency_conflict', 'Idempotency-Key: was used with a different body', { status: 422 });

type WriteOptions = {
  /** The id was fixed by a request that died: the pet it may have written there is this one. */
  mayBeWritten?: boolean;
  /** Called before moving on from a taken id, with the next one. */
  beforeMove?: (nextId: number) => Promise<void>;
};

/** Writes the pet under `id`, or under the next fresh id while ids are taken by other pets. */
async function writePet(
  { pets, logger }: PetCreation,
  newPet: NewPet,
  firstId: number,
  { mayBeWritten = false, beforeMove }: WriteOptions = {},
): Promise<Pet> {
  let id = firstId;
  for (let taken = 0; ; taken++) {
    const pet = { id, ...newPet };
    const result = await pets.insert(pet);
    if (result.inserted) return pet;
    if (mayBeWritten && id === firstId && isPetOf(result.occupant, newPet)) return pet;
    if (taken === MAX_TAKEN_IDS)
      throw new Error(`${taken + 1} pet ids in a row were taken: the id counter is behind`);
    const nextId = await pets.reserveId();
    logger.warn('Pet id already taken: the id counter is behind the table, so the next id is used', {
      takenId: id,
      nextId,
    });
    await beforeMove?.(nextId);
    id = nextId;
  }
}

type Claim = { petId: number; takenOver: boolean } | { replay: Pet };

/** The pet id this request may write (fresh, or a dead request's it took over), or the pet to replay. */
async function claimOrReplay(
  { pets, idempotencyRecords }: PetCreation,
  recordKey: RecordKey,
  fingerprint: string,
  lockedUntil: number,
): Promise<Claim> {
  const petId = await pets.reserveId();
  try {
    const claim = await claimWith(idempotencyRecords, recordKey, { fingerprint, petId, lockedUntil });
    // A replay or a takeover writes nothing under the id reserved: the next create takes it.
    if ('replay' in claim || claim.takenOver) pets.returnId(petId);
    return claim;
  } catch (error) {
    // A conflict (409, 422) claimed nothing; after any other failure the claim may have been stored.
    if (error instanceof ApiError) pets.returnId(petId);
    throw error;
  }
}

/** Claims the record for `claim.petId`, or reads what holds it: a replay, a conflict or a takeover. */
async function claimWith(
  idempotencyRecords: IdempotencyRecords,
  recordKey: RecordKey,
  claim: { fingerprint: string; petId: number; lockedUntil: number },
): Promise<Claim> {
  const { fingerprint, petId, lockedUntil } = claim;
  // Twice at most: a record that expires between a failed claim and its read is free again.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await idempotencyRecords.claim(recordKey, claim)) return { petId, takenOver: false };
    const existing = await idempotencyRecords.read(recordKey);
    if (!existing) continue;
    if (existing.fingerprint !== fingerprint) throw usedWithAnotherBody();
    if (existing.status === 'completed') return { replay: existing.pet };
    const expired = existing.lockedUntil <= Date.now();
    if (!expired || !(await idempotencyRecords.relock(recordKey, existing.lockedUntil, { lockedUntil }))) {
      throw inProgress();
    }
    return { petId: existing.petId, takenOver: true }; // the dead request's id: never two pets
  }
  throw inProgress();
}

export async function createPetOnce(
  creation: PetCreation,
  newPet: NewPet,
  request: IdempotentRequest | undefined,
): Promise<CreateOutcome> {
  if (!request)
    return { pet: await writePet(creation, newPet, await creation.pets.reserveId()), replayed: false };
  const records = creation.idempotencyRecords;
  const recordKey = idempotencyItemKey(request.scope, sha256(request.key));
  // stringifyJson keeps the bigint categoryId (JSON.stringify, which Powertools Idempotency hashes
  // with, throws on it).
  const fingerprint = sha256(stringifyJson(canonical(request.body)));
  const lockedUntil = Date.now() + IN_FLIGHT_MS;

  const claim = await claimOrReplay(creation, recordKey, fingerprint, lockedUntil);
  if ('replay' in claim) return { pet: claim.replay, replayed: true };
  try {
    const pet = await writePet(creation, newPet, claim.petId, {
      mayBeWritten: claim.takenOver,
      // The record names the id before the pet is written there: a retry finds the right one.
      beforeMove: async (petId) => {
        if (!(await records.relock(recordKey, lockedUntil, { lockedUntil, petId }))) throw inProgress();
      },
    });
    await records.complete(recordKey, lockedUntil, pet);
    return { pet, replayed: false };
  } catch (error) {
    // Not when DynamoDB is down: releasing would only spend the time left before the function's timeout.
    if (!(error instanceof StoreUnavailableError))
      await records.release(recordKey, lockedUntil).catch(() => undefined);
    throw error;
  }
}
