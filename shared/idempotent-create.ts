// createPet with the contract's Idempotency-Key: within 24 hours the same key and body replay the
// first Animal and create nothing; another body is 422, a first request still in flight is 409.
// The pet id is fixed when the key is claimed, so a request that died half-way is finished by its
// retry with the same id: exactly one pet, whatever failed where. (Powertools Idempotency would
// hash the body with JSON.stringify, which throws on the bigint categoryId.)
import { createHash } from 'node:crypto';
import { ApiError } from '#shared/errors.ts';
import { stringifyJson } from '#shared/json.ts';
import type { NewPet, Pet } from '#shared/schemas.ts';
import { IN_FLIGHT_MS, claim, complete, read, relock } from '#shared/store/idempotency-records.ts';
import type { PetStore } from '#shared/store/pet-store.ts';
import { idempotencyKey } from '#shared/store/table.ts';

export type IdempotentRequest = { scope: string; key: string; body: unknown };
export type CreateOutcome = { pet: Pet; replayed: boolean };

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

const conflict = (status: 409 | 422, message: string) =>
  new ApiError('idempotency_conflict', message, { status });

export async function createPetOnce(
  store: PetStore,
  newPet: NewPet,
  request: IdempotentRequest | undefined,
  attempt = 1,
): Promise<CreateOutcome> {
  if (!request) return { pet: await store.create(newPet), replayed: false };
  const recordKey = idempotencyKey(request.scope, sha256(request.key));
  const fingerprint = sha256(stringifyJson(canonical(request.body)));
  const lockedUntil = Date.now() + IN_FLIGHT_MS;

  let petId = await store.reserveId();
  if (!(await claim(recordKey, { fingerprint, petId, lockedUntil }))) {
    const existing = await read(recordKey);
    // Expired between the claim and the read: claim again, once (a second miss is a busy key).
    if (!existing && attempt === 1) return createPetOnce(store, newPet, request, 2);
    if (!existing) throw conflict(409, 'Idempotency-Key: a request with this key is still in progress');
    if (existing.fingerprint !== fingerprint) {
      throw conflict(422, 'Idempotency-Key: was used with a different body');
    }
    if (existing.pet) return { pet: existing.pet, replayed: true };
    if (existing.lockedUntil > Date.now() || !(await relock(recordKey, existing.lockedUntil, lockedUntil))) {
      throw conflict(409, 'Idempotency-Key: a request with this key is still in progress');
    }
    petId = existing.petId; // take over a request that died: same id, so never two pets
  }
  try {
    const pet = await store.insert({ id: petId, ...newPet });
    await complete(recordKey, pet);
    return { pet, replayed: false };
  } catch (error) {
    // Let an immediate retry take over (with the same id) instead of waiting out the lock.
    await relock(recordKey, lockedUntil, 0).catch(() => undefined);
    throw error;
  }
}
