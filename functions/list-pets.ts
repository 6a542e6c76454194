// listPets: GET /v1/pets?limit&status&cursor, ordered by id, paginated with Link rel="next". The
// module builds the handler from its parts (composeListPets), as Lambda and local/ both do.
import { lambdaHandler } from '#functions/lambda-environment.ts';
import type { FunctionParts } from '#functions/lambda-environment.ts';
import { httpEndpoint } from '#shared/http/endpoint.ts';
import type { EndpointDependencies } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/json-response.ts';
import { createCursors } from '#shared/http/pagination.ts';
import type { Cursors } from '#shared/http/pagination.ts';
import { ListPetsQuery } from '#shared/schemas.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import type { PetStore } from '#shared/store/pet-store.ts';

type ListPetsDependencies = { pets: PetStore; cursors: Cursors } & EndpointDependencies;

const createListPetsHandler = ({ pets, cursors, ...endpoint }: ListPetsDependencies) =>
  httpEndpoint({ request: { query: ListPetsQuery }, conditional: true, ...endpoint }, async ({ query }) => {
    const { limit, cursor, ...filter } = query;
    const page = await pets.list({ limit, filter, after: cursors.openCursor(query) });
    return ok(page.pets, cursors.nextPageHeaders(query, page.next));
  });

export const composeListPets = ({
  settings,
  table,
  tuning,
  ...endpoint
}: FunctionParts<'cursorSecret' | 'petShards'>) =>
  createListPetsHandler({
    pets: createDynamoDbPetStore(table, { shards: settings.petShards, pickCounter: tuning?.pickCounter }),
    cursors: createCursors(settings.cursorSecret),
    ...endpoint,
  });

export const handler = lambdaHandler('listPets', composeListPets);
