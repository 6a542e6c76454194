// createPet: POST /v1/pets with a NewPet; 201 with the Animal and its Location. With an
// Idempotency-Key, a retry replays the first Animal instead of creating another.
import { httpEndpoint } from '#shared/http/endpoint.ts';
import type { EndpointDependencies } from '#shared/http/endpoint.ts';
import { idempotentRequest } from '#shared/http/idempotency-key.ts';
import { created } from '#shared/http/json-response.ts';
import { petLocation } from '#shared/http/routes.ts';
import { createPetOnce } from '#shared/idempotent-create.ts';
import { NewPet } from '#shared/schemas.ts';
import type { IdempotencyRecords } from '#shared/store/idempotency-records.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

export type CreatePetDependencies = {
  pets: PetStore;
  idempotencyRecords: IdempotencyRecords;
} & EndpointDependencies;

export function createCreatePetHandler({ pets, idempotencyRecords, ...endpoint }: CreatePetDependencies) {
  const { observability } = endpoint;
  const creation = { pets, idempotencyRecords, logger: observability.logger };
  return httpEndpoint({ request: { body: NewPet }, ...endpoint }, async ({ body, event }) => {
    const { pet, replayed } = await createPetOnce(creation, body, idempotentRequest(event));
    if (!replayed) observability.metrics.count('PetsCreated');
    return created(pet, {
      Location: petLocation(pet.id),
      ...(replayed && { 'Idempotent-Replayed': 'true' }),
    });
  });
}
