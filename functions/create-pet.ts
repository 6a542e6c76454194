// createPet: POST /v1/pets with a NewPet; 201 with the Animal and its Location. With an
// Idempotency-Key, a retry replays the first Animal instead of creating another.
import { createPetOnce } from '#shared/idempotent-create.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import { idempotentRequest } from '#shared/http/idempotency-key.ts';
import { created } from '#shared/http/responses.ts';
import { petLocation } from '#shared/http/routes.ts';
import { MetricUnit, metrics } from '#shared/observability.ts';
import { NewPet } from '#shared/schemas.ts';
import { petStore } from '#shared/store/dynamodb-pet-store.ts';

export const handler = httpEndpoint({ body: NewPet }, async ({ body, event }) => {
  const { pet, replayed } = await createPetOnce(petStore, body, idempotentRequest(event));
  if (!replayed) metrics.addMetric('PetsCreated', MetricUnit.Count, 1);
  return created(pet, { Location: petLocation(pet.id), ...(replayed && { 'Idempotent-Replayed': 'true' }) });
});
