// createPet with the contract's Idempotency-Key: within 24 hours the same key and body replay the
// first Animal and create nothing; another body is 422, a first request still in flight is 409.
// The pet id is fixed when the key is claimed, so a request that died half-way is finished by its
// retry with the same id: exactly one pet, whatever failed where. (Powertools Idempotency would
// hash the body with JSON.stringify, which throws on the bigint categoryId.)
import { createHash } from 'node:crypto';
import { ApiError } from '#shared/errors.ts';
import { stringifyJson } from '#shared/json.ts';
import type { NewPet, Pet } from '#shared/schemas.ts';
import { claim, complete, read, relock } from '#shared/store/idempotency-records.ts';
import { StoreUnavailableError } from '#shared/store/errors.ts';
import { IN_FLIGHT_MS } from '#shared/timeouts.ts';
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

const inProgress = () =>
  new ApiError('idempotency_conflict', 'Idempotency-Key: a request with this key is still in progress');
const usedWithAnotherBody = () =>
  new ApiError('idempotency_conflict', 'Idempotency-Key: was used with a different body', { status: 422 });

type RecordKey = ReturnType<typeof idempotencyKey>;

/** The pet id this request may write (fresh, or a dead request's it took over), or the pet to replay. */
async function claimOrReplay(
  store: PetStore,
  recordKey: RecordKey,
  fingerprint: string,
  lockedUntil: number,
) {
  const petId = await store.reserveId();
  // Twice at most: a record that expires between a failed claim and its read is free again.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await claim(recordKey, { fingerprint, petId, lockedUntil })) return { petId };
    const existing = await read(recordKey);
    if (!existing) continue;
    if (existing.fingerprint !== fingerprint) throw usedWithAnotherBody();
    if (existing.pet) return { replay: existing.pet };
    if (existing.lockedUntil > Date.now() || !(await relock(recordKey, existing.lockedUntil, lockedUntil))) {
      throw inProgress();
    }
    return { petId: existing.petId }; // the same id as the request that died: never two pets
  }
  throw inProgress();
}

export async function createPetOnce(
  store: PetStore,
  newPet: NewPet,
  request: IdempotentRequest | undefined,
): Promise<CreateOutcome> {
  if (!request) return { pet: await store.create(newPet), replayed: false };
  const recordKey = idempotencyKey(request.scope, sha256(request.key));
  const fingerprint = sha256(stringifyJson(canonical(request.body)));
  const lockedUntil = Date.now() + IN_FLIGHT_MS;

  const claimed = await claimOrReplay(store, recordKey, fingerprint, lockedUntil);
  if (claimed.replay) return { pet: claimed.replay, replayed: true };
  try {
    const pet = await store.insert({ id: claimed.petId, ...newPet });
    await complete(recordKey, pet);
    return { pet, replayed: false };
  } catch (error) {
    // Let an immediate retry take over (with the same id) instead of waiting out the lock; not when
    // DynamoDB is down, where releasing would only spend the time left before the function's timeout.
    if (!(error instanceof StoreUnavailableError))
      await relock(recordKey, lockedUntil, 0).catch(() => undefined);
    throw error;
  }
}
