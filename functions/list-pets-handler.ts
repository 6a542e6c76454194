// listPets: GET /v1/pets?limit&status&cursor, ordered by id, paginated with Link rel="next".
import { httpEndpoint } from '#shared/http/endpoint.ts';
import type { EndpointDependencies } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/json-response.ts';
import type { Cursors } from '#shared/http/pagination.ts';
import { ListPetsQuery } from '#shared/schemas.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

export type ListPetsDependencies = { pets: PetStore; cursors: Cursors } & EndpointDependencies;

export const createListPetsHandler = ({ pets, cursors, ...endpoint }: ListPetsDependencies) =>
  httpEndpoint({ request: { query: ListPetsQuery }, conditional: true, ...endpoint }, async ({ query }) => {
    const { limit, cursor, ...filter } = query;
    const page = await pets.list({ limit, filter, after: cursors.openCursor(query) });
    return ok(page.pets, cursors.nextPageHeaders(query, page.next));
  });
