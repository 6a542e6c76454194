// getPet (deprecated): GET /v1/pets/{petId}. Every response, errors included, says so in headers.
import { ApiError } from '#shared/api-error.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/deprecation.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import type { EndpointDependencies } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/json-response.ts';
import { GetPetPath } from '#shared/schemas.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

export type GetPetDependencies = { pets: PetStore } & EndpointDependencies;

export const createGetPetHandler = ({ pets, ...endpoint }: GetPetDependencies) =>
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
