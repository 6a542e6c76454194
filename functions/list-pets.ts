// listPets: GET /v1/pets?limit&status&cursor, ordered by id, paginated with Link rel="next".
import { httpEndpoint } from '#shared/http/endpoint.ts';
import { nextPageHeaders, openCursor } from '#shared/http/pagination.ts';
import { ok } from '#shared/http/responses.ts';
import { ListPetsQuery } from '#shared/schemas.ts';
import { petStore } from '#shared/store/dynamodb-pet-store.ts';

export const handler = httpEndpoint({ query: ListPetsQuery }, async ({ query }) => {
  const page = await petStore.list({ limit: query.limit, status: query.status, afterId: openCursor(query) });
  return ok(page.pets, nextPageHeaders(query, page.lastId));
});
