// createPet: POST /v1/pets with a NewPet; 201 with the Animal and its Location. With an
// Idempotency-Key, a retry replays the first Animal instead of creating another. The module builds the
// handler from its parts (composeCreatePet), as Lambda and local/ both do.
import { lambdaHandler } from '#functions/lambda-environment.ts';
import type { FunctionParts } from '#functions/lambda-environment.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import type { EndpointDependencies } from '#shared/http/endpoint.ts';
import { idempotentRequest } from '#shared/http/idempotency-key.ts';
import { created } from '#shared/http/json-response.ts';
import { petLocation } from '#shared/http/routes.ts';
import { createPetOnce } from '#shared/idempotent-create.ts';
import { NewPet } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { createIdempotencyRecords } from '#shared/store/idempotency-records.ts';
import type { IdempotencyRecords } from '#shared/store/idempotency-records.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

type CreatePetDependencies = {
  pets: PetStore;
  idempotencyRecords: IdempotencyRecords;
} & EndpointDependencies;

function createCreatePetHandler({ pets, idempotencyRecords, ...endpoint }: CreatePetDependencies) {
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

export const composeCreatePet = ({ settings, table, tuning, ...endpoint }: FunctionParts<'petShards'>) =>
  createCreatePetHandler({
    pets: createDynamoDbPetStore(table, { shards: settings.petShards, pickCounter: tuning?.pickCounter }),
    idempotencyRecords: createIdempotencyRecords(table),
    ...endpoint,
  });

export const handler = lambdaHandler('createPet', composeCreatePet);
