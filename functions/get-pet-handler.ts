// getPet (deprecated): GET /v1/pets/{petId}. Every response, errors included, says so in headers.
import { ApiError } from '#shared/api-error.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/deprecation.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/json-response.ts';
import type { Observability } from '#shared/observability.ts';
import { GetPetPath } from '#shared/schemas.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

export type GetPetDependencies = { pets: PetStore; observability: Observability };

export const createGetPetHandler = ({ pets, observability }: GetPetDependencies) =>
  httpEndpoint(
    { request: { path: GetPetPath }, responseHeaders: GET_PET_DEPRECATION_HEADERS, observability },
    async ({ path }) => {
      const pet = await pets.get(path.petId);
      if (!pet) throw new ApiError('not_found', `petId: no animal has id ${path.petId}`);
      return ok(pet);
    },
  );
