// listPets: GET /v1/pets?limit&status&cursor, ordered by id, paginated with Link rel="next".
import { httpEndpoint } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/json-response.ts';
import type { Cursors } from '#shared/http/pagination.ts';
import type { Observability } from '#shared/observability.ts';
import { ListPetsQuery } from '#shared/schemas.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

export type ListPetsDependencies = { pets: PetStore; cursors: Cursors; observability: Observability };

export const createListPetsHandler = ({ pets, cursors, observability }: ListPetsDependencies) =>
  httpEndpoint({ request: { query: ListPetsQuery }, observability }, async ({ query }) => {
    const { limit, cursor, ...filter } = query;
    const page = await pets.list({ limit, filter, after: cursors.openCursor(query) });
    return ok(page.pets, cursors.nextPageHeaders(query, page.next));
  });
