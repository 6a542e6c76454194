// getPet (deprecated): GET /v1/pets/{petId}. Every response, errors included, says so in headers.
import { ApiError } from '#shared/errors.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/responses.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/routes.ts';
import { GetPetPath } from '#shared/schemas.ts';
import { petStore } from '#shared/store/dynamodb-pet-store.ts';

export const handler = httpEndpoint(
  { path: GetPetPath, headers: GET_PET_DEPRECATION_HEADERS },
  async ({ path }) => {
    const pet = await petStore.get(path.petId);
    if (!pet) throw new ApiError('not_found', `petId: no animal has id ${path.petId}`);
    return ok(pet);
  },
);
