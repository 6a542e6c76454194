// getPet (deprecated): GET /v1/pets/{petId}. Every response, errors included, says so in headers. The
// module builds the handler from its parts (composeGetPet), as Lambda and local/ both do.
import { lambdaHandler } from '#functions/lambda-environment.ts';
import type { FunctionParts } from '#functions/lambda-environment.ts';
import { ApiError } from '#shared/api-error.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/deprecation.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import type { EndpointDependencies } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/json-response.ts';
import { GetPetPath } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { withPetReadCache } from '#shared/store/pet-read-cache.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

type GetPetDependencies = { pets: PetStore } & EndpointDependencies;

const createGetPetHandler = ({ pets, ...endpoint }: GetPetDependencies) =>
  httpEndpoint(
    {
      request: { path: GetPetPath },
      responseHeaders: GET_PET_DEPRECATION_HEADERS,
      conditional: true,
      ...endpoint,
    },
    async ({ path }) => {
      const pet = await pets.get(path.petId);
      if (!pet) throw new ApiError('not_found', `petId: no animal has id ${path.petId}`);
      return ok(pet);
    },
  );

export const composeGetPet = ({ table, tuning, ...endpoint }: FunctionParts) =>
  createGetPetHandler({
    pets: withPetReadCache(createDynamoDbPetStore(table), tuning?.petReadCacheEntries),
    ...endpoint,
  });

export const handler = lambdaHandler('getPet', composeGetPet);
